package dev.cryptopay.transaction.chain;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.SandboxBlock;
import dev.cryptopay.transaction.domain.SandboxTransfer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The sandbox chain's write side (docs/decisions.md §9): {@code POST /sandbox/chain/transfers} records a transfer as a
 * customer's wallet would broadcast it, {@code POST /sandbox/chain/blocks} mines blocks. Heights start at 0 (a
 * genesis block per network), hashes are random 32-byte values chained by parent hash, so the watcher reads the
 * sandbox exactly like a node. Writers of one network are serialised with a transaction-scoped advisory lock.
 */
@ApplicationScoped
public class SandboxChain {

    public static final int MAX_CONFIRMATIONS = 1000;
    public static final int MAX_BLOCKS = 1000;

    private static final Pattern EVM_ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
    private static final Pattern BITCOIN_ADDRESS = Pattern.compile("(tb1|bc1|bcrt1)[02-9ac-hj-np-z]{8,87}|[mn2][1-9A-HJ-NP-Za-km-z]{25,34}");
    private static final Pattern TRON_ADDRESS = Pattern.compile("T[1-9A-HJ-NP-Za-km-z]{33}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final EntityManager em;
    private final ChainAdapters adapters;
    private final Event<ChainAdvanced> advanced;

    public SandboxChain(EntityManager em, ChainAdapters adapters, Event<ChainAdvanced> advanced) {
        this.em = em;
        this.adapters = adapters;
        this.advanced = advanced;
    }

    /** A transfer request as the API received it; {@code amount} is a decimal string (a JSON number is accepted). */
    public record TransferCommand(String network, String asset, String toAddress, String amount, String fromAddress,
            Integer confirmations) {
    }

    /** The transfer as recorded: its hash, the block it is in (null while pending) and its confirmations. */
    public record TransferReceipt(String txnHash, String network, String asset, String fromAddress,
            String toAddress, BigDecimal amount, Long blockNumber, String blockHash, int confirmations,
            long headBlock) {
    }

    public record MiningReceipt(String network, int mined, long headBlock, String headHash) {
    }

    /**
     * A transfer sent through the API (docs/decisions.md §48): {@code toAddress} must be the address of one of the
     * caller's own payment requests on that network (of its account, and of its merchant when the key is bound to
     * one); any other address, another tenant's included, answers 404 like an unknown one.
     */
    @Transactional
    public TransferReceipt transferToOwnRequest(UUID accountId, Optional<UUID> merchantId, TransferCommand command) {
        return transfer(accountId, merchantId, command, true);
    }

    /**
     * A transfer from inside the service (the sandbox treasury paying a refund out to a customer's address): any
     * well-formed address of the network.
     */
    @Transactional
    public TransferReceipt transfer(UUID accountId, TransferCommand command) {
        return transfer(accountId, Optional.empty(), command, false);
    }

    private TransferReceipt transfer(UUID accountId, Optional<UUID> merchantId, TransferCommand command,
            boolean ownRequestsOnly) {
        Validation v = new Validation();
        v.requiredText("network", command.network()).requiredText("asset", command.asset())
                .requiredText("toAddress", command.toAddress()).requiredText("amount", command.amount());
        v.network("network", command.network()).asset("asset", command.asset());
        Catalogue catalogue = Catalogue.get();
        if (!v.hasErrors() && !catalogue.supports(command.asset(), command.network())) {
            v.add("asset", command.asset() + " is not offered on " + command.network() + "; see GET /assets");
        }
        Integer confirmations = command.confirmations() == null ? 1 : command.confirmations();
        v.between("confirmations", confirmations, 0, MAX_CONFIRMATIONS);
        BigDecimal amount = null;
        if (command.amount() != null && !command.amount().isBlank()) {
            amount = amount(v, command.amount().strip(), command.asset());
        }
        if (command.network() != null && catalogue.network(command.network()).isPresent()
                && command.toAddress() != null) {
            address(v, "toAddress", command.network(), command.toAddress().strip());
            if (command.fromAddress() != null) {
                address(v, "fromAddress", command.network(), command.fromAddress().strip());
            }
        }
        v.throwIfInvalid();
        String network = command.network();
        if (ownRequestsOnly) {
            requireOwnRequest(accountId, merchantId, network, command.toAddress().strip());
        }
        requireSimulated(network);
        lock(network);

        SandboxTransfer transfer = new SandboxTransfer();
        transfer.txnHash = txnHash(network);
        transfer.network = network;
        transfer.asset = command.asset();
        transfer.toAddress = command.toAddress().strip();
        transfer.fromAddress = command.fromAddress() != null ? command.fromAddress().strip() : randomAddress(network);
        transfer.amount = amount;
        transfer.accountId = accountId;
        transfer.createdAt = Clock.now();
        transfer.persist();
        em.flush();

        SandboxBlock head = confirmations > 0 ? mineLocked(accountId, network, confirmations) : headBlock(network);
        em.refresh(transfer);
        int confirmationCount = transfer.blockNumber == null ? 0 : (int) (head.number - transfer.blockNumber + 1);
        String blockHash = transfer.blockNumber == null ? null
                : SandboxBlock.<SandboxBlock>find("network = ?1 and number = ?2", network, transfer.blockNumber)
                        .firstResult().hash;
        advanced.fire(new ChainAdvanced(network));
        return new TransferReceipt(transfer.txnHash, network, transfer.asset, transfer.fromAddress,
                transfer.toAddress, transfer.amount, transfer.blockNumber, blockHash, confirmationCount, head.number);
    }

    /**
     * Mines {@code count} blocks on {@code network} for {@code accountId}: the first takes only that account's
     * pending transfers (docs/decisions.md §48); the network's height grows for everyone, as on a public test network.
     */
    @Transactional
    public MiningReceipt mine(UUID accountId, String network, Integer count) {
        Validation v = new Validation();
        v.requiredText("network", network).network("network", network);
        v.required("count", count).between("count", count, 1, MAX_BLOCKS);
        v.throwIfInvalid();
        requireSimulated(network);
        lock(network);
        SandboxBlock head = mineLocked(accountId, network, count);
        advanced.fire(new ChainAdvanced(network));
        return new MiningReceipt(network, count, head.number, head.hash);
    }

    /** The sandbox chain's height on {@code network}: 0 (genesis) until the first block is mined. */
    static long head(String network) {
        Long max = SandboxBlock.find("select max(b.number) from SandboxBlock b where b.network = ?1", network)
                .project(Long.class).firstResult();
        return max == null ? 0 : max;
    }

    /** 404 unless {@code address} is one of the caller's payment requests on {@code network}. */
    private void requireOwnRequest(UUID accountId, Optional<UUID> merchantId, String network, String address) {
        boolean evm = "evm".equals(Catalogue.get().network(network).map(Catalogue.Network::family).orElse(""));
        var query = em.createNativeQuery("select count(*) from payment_request p "
                + "join transaction t on t.id = p.transaction_id where p.crypto_network = :network and "
                + (evm ? "lower(p.address) = lower(:address)" : "p.address = :address")
                + " and t.account_id = :account" + (merchantId.isPresent() ? " and t.merchant_id = :merchant" : ""))
                .setParameter("network", network).setParameter("address", address).setParameter("account", accountId);
        merchantId.ifPresent(m -> query.setParameter("merchant", m));
        Number found = (Number) query.getSingleResult();
        if (found.longValue() == 0) {
            throw ApiException.notFound("Payment request with address " + address + " on " + network);
        }
    }

    private void requireSimulated(String network) {
        if (!adapters.simulated(network)) {
            throw ApiException.conflict("network_not_simulated", "Payments on " + network
                    + " are watched on a real node in this deployment; send the transfer on that node instead.");
        }
    }

    /** Serialises writers of one network's chain until the transaction ends. */
    private void lock(String network) {
        TransactionLocks.take("sandbox-chain:" + network);
    }

    private SandboxBlock headBlock(String network) {
        SandboxBlock head = SandboxBlock.find("network = ?1 order by number desc", network).firstResult();
        return head != null ? head : genesis(network);
    }

    /** Mines {@code count} blocks; the first takes the pending transfers of {@code accountId} on the network. */
    private SandboxBlock mineLocked(UUID accountId, String network, int count) {
        SandboxBlock parent = headBlock(network);
        OffsetDateTime now = Clock.now();
        for (int i = 0; i < count; i++) {
            SandboxBlock block = new SandboxBlock();
            block.network = network;
            block.number = parent.number + 1;
            block.parentHash = parent.hash;
            block.hash = blockHash(network, block.number, parent.hash);
            block.minedAt = now;
            block.persist();
            if (i == 0) {
                em.flush();
                em.createQuery("update SandboxTransfer t set t.blockNumber = :number "
                        + "where t.network = :network and t.blockNumber is null and t.accountId = :account")
                        .setParameter("number", block.number).setParameter("network", network)
                        .setParameter("account", accountId).executeUpdate();
            }
            parent = block;
        }
        em.flush();
        return parent;
    }

    private SandboxBlock genesis(String network) {
        SandboxBlock genesis = new SandboxBlock();
        genesis.network = network;
        genesis.number = 0;
        genesis.hash = blockHash(network, 0, "genesis");
        genesis.parentHash = prefix(network) + "0".repeat(64);
        genesis.minedAt = Clock.now();
        genesis.persist();
        return genesis;
    }

    private static BigDecimal amount(Validation v, String text, String asset) {
        BigDecimal amount;
        try {
            amount = new BigDecimal(text);
        } catch (NumberFormatException e) {
            v.add("amount", "must be a decimal number such as \"0.015\"");
            return null;
        }
        if (amount.signum() <= 0) {
            v.add("amount", "must be greater than 0");
            return null;
        }
        Catalogue.get().asset(asset).ifPresent(a -> {
            if (amount.stripTrailingZeros().scale() > a.decimals()) {
                v.add("amount", asset + " has " + a.decimals() + " decimals; the amount has more");
            }
        });
        if (amount.compareTo(new BigDecimal("1e15")) >= 0) {
            v.add("amount", "must be less than 10^15");
        }
        return amount.stripTrailingZeros().scale() < 0 ? amount.setScale(0) : amount.stripTrailingZeros();
    }

    private static void address(Validation v, String field, String network, String address) {
        String family = Catalogue.get().network(network).map(Catalogue.Network::family).orElse("");
        Pattern pattern = switch (family) {
            case "evm" -> EVM_ADDRESS;
            case "bitcoin" -> BITCOIN_ADDRESS;
            case "tron" -> TRON_ADDRESS;
            default -> null;
        };
        if (pattern != null && !pattern.matcher(address).matches()) {
            v.add(field, "is not a " + network + " address");
        }
    }

    private static String prefix(String network) {
        return "evm".equals(Catalogue.get().network(network).map(Catalogue.Network::family).orElse("")) ? "0x" : "";
    }

    private static String txnHash(String network) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return prefix(network) + HexFormat.of().formatHex(bytes);
    }

    private static String blockHash(String network, long number, String parentHash) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((network + ":" + number + ":" + parentHash + ":").getBytes(StandardCharsets.UTF_8));
            return prefix(network) + HexFormat.of().formatHex(sha.digest(salt));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A plausible (not checksummed) sender address of the network, for transfers that name none. */
    private static String randomAddress(String network) {
        String family = Catalogue.get().network(network).map(Catalogue.Network::family).orElse("");
        return switch (family) {
            case "evm" -> "0x" + randomChars("0123456789abcdef", 40);
            case "tron" -> "T" + randomChars("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 33);
            default -> "tb1q" + randomChars("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38);
        };
    }

    private static String randomChars(String alphabet, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    /** Fired when a network's sandbox chain changed, so the watcher reads it at once rather than at its next tick. */
    public record ChainAdvanced(String network) {
    }
}
