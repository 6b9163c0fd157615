package dev.cryptopay.transaction.screening;

/**
 * The address-screening provider the platform configures (docs/decisions.md §11: not the account's
 * {@code addressProvider}, which names where deposit addresses come from). Implementations answer from a list, a
 * vendor API or both; one that cannot answer (down, timed out, misconfigured) throws
 * {@link ScreeningUnavailableException}, which is the {@code vendor-status} trigger.
 */
public interface ScreeningProvider {

    /**
     * Screens one address on one network.
     *
     * @param network the network code of the catalogue ({@code ethereum}, {@code bitcoin}, …)
     * @param address the address as seen on chain or as the payer named it
     * @return the verdict; {@link ScreeningResult#clear()} when nothing is known against the address
     * @throws ScreeningUnavailableException when the provider cannot answer
     */
    ScreeningResult screen(String network, String address) throws ScreeningUnavailableException;
}
