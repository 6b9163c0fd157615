package dev.cryptopay.support.catalogue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The networks, assets and countries the deployment supports, read once from the declarative resources
 * {@code catalogue/assets.json} and {@code catalogue/countries.txt} (ISO 3166-1 alpha-2, all 249 codes).
 * The country list is committed rather than taken from the JDK so it does not change with the runtime.
 */
public final class Catalogue {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Network(String name, String family, String nativeAsset, Long sandboxChainId,
            Long productionChainId, int defaultMinConfirmsLow, int defaultMinConfirmsHigh,
            int defaultQrExpirationSeconds) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Asset(String code, String type, int decimals, List<String> networks) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    private record Document(List<Network> networks, List<Asset> assets) {
    }

    private static final Catalogue INSTANCE = load();

    private final List<Network> networks;
    private final List<Asset> assets;
    private final Map<String, Network> networksByName;
    private final Map<String, Asset> assetsByCode;
    private final List<String> countries;
    private final Set<String> countrySet;

    private Catalogue(Document document, List<String> countries) {
        this.networks = List.copyOf(document.networks());
        this.assets = List.copyOf(document.assets());
        this.networksByName = networks.stream().collect(Collectors.toUnmodifiableMap(Network::name, Function.identity()));
        this.assetsByCode = assets.stream().collect(Collectors.toUnmodifiableMap(Asset::code, Function.identity()));
        this.countries = List.copyOf(countries);
        this.countrySet = Set.copyOf(countries);
    }

    public static Catalogue get() {
        return INSTANCE;
    }

    public List<Asset> assets() {
        return assets;
    }

    public List<Network> networks() {
        return networks;
    }

    public Optional<Asset> asset(String code) {
        return Optional.ofNullable(code == null ? null : assetsByCode.get(code));
    }

    public Optional<Network> network(String name) {
        return Optional.ofNullable(name == null ? null : networksByName.get(name));
    }

    /** True when {@code asset} is offered on {@code network}. */
    public boolean supports(String asset, String network) {
        return asset(asset).map(a -> a.networks().contains(network)).orElse(false);
    }

    public List<String> countries() {
        return countries;
    }

    public boolean isCountry(String code) {
        return code != null && countrySet.contains(code);
    }

    private static Catalogue load() {
        try (InputStream assets = resource("catalogue/assets.json");
                InputStream countries = resource("catalogue/countries.txt")) {
            Document document = new ObjectMapper().readValue(assets, Document.class);
            List<String> codes = new String(countries.readAllBytes(), StandardCharsets.US_ASCII).lines()
                    .map(String::strip).filter(line -> !line.isEmpty()).toList();
            return new Catalogue(document, codes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the catalogue", e);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = Catalogue.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException("missing resource " + name);
        }
        return in;
    }
}
