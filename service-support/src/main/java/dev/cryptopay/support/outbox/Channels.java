package dev.cryptopay.support.outbox;

/** Reactive Messaging channel names shared by every service. */
public final class Channels {
    /** The outbox relay's one outgoing channel; each record names its own topic in its metadata. */
    public static final String OUTBOX = "outbox-out";

    private Channels() {
    }
}
