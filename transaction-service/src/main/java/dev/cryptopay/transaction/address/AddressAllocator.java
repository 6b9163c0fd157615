package dev.cryptopay.transaction.address;

import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Hands out child indexes of an extended public key (docs/decisions.md §56). Each index is taken in its own short
 * transaction on the small {@code addresses} pool (not enlisted in the caller's transaction, autocommit): the xpub's
 * {@code address_cursor} row is locked only for that one statement, not until the creation commits, so creations for
 * one merchant no longer run one at a time. An index is never handed out twice: a creation that fails after taking
 * one leaves a gap (an address nobody was shown), which {@link AddressGapMetrics} counts towards the run of
 * issued-but-unfunded indexes that merchants' wallets must scan past (their gap limit, docs/performance.md).
 *
 * <p>The pool's sessions commit without waiting for the WAL flush (synchronous_commit off). That never loses an index
 * someone was shown: the creation that uses it commits later, with a synchronous commit, and its WAL flush covers
 * the cursor's earlier commit record; if the database fails before that, the creation fails too and its address was
 * never shown. The unique index on payment_request (xpub, derivation_index) stays as the last guard.
 */
@ApplicationScoped
public class AddressAllocator {

    static final String NEXT_INDEX = """
            insert into address_cursor (xpub, next_index) values (?, 1)
            on conflict (xpub) do update set next_index = address_cursor.next_index + 1
            returning next_index - 1""";

    private final AgroalDataSource addresses;
    private final AddressGapMetrics gaps;

    public AddressAllocator(@DataSource("addresses") AgroalDataSource addresses, AddressGapMetrics gaps) {
        this.addresses = addresses;
        this.gaps = gaps;
    }

    /** The next index of {@code xpub} never handed out before, starting at 0; committed at once. */
    public long nextIndex(String xpub) {
        try (Connection connection = addresses.getConnection()) {
            connection.setAutoCommit(true);
            try (PreparedStatement st = connection.prepareStatement(NEXT_INDEX)) {
                st.setString(1, xpub);
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    long index = rs.getLong(1);
                    gaps.watch(xpub);
                    return index;
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("allocating an address index failed", e);
        }
    }
}
