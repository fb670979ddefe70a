package io.rewind.ft;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A protocol as the registry lists it: its name, one line on what a crash costs under it, and how to
 * make one for a job.
 */
public record ProtocolDescriptor(String name, String summary, Supplier<Protocol> factory) {
    public ProtocolDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(factory, "factory");
    }

    /** A new instance of the protocol, for one job. */
    public Protocol create() {
        return factory.get();
    }

    /** Whether the protocol recovers from crashes (asked of a fresh instance). */
    public boolean recovers() {
        return create().recovers();
    }

    @Override
    public String toString() {
        return name;
    }
}
