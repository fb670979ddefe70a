package io.rewind.ft;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A protocol as the registry lists it: its name, what a crash costs under it, what it does ({@link
 * Capability}), the options it takes ({@link ProtocolOption}) and how to make one for a job. Everything
 * outside the protocol's package learns about the protocol from here: the command line builds its
 * options from it, a job validates its option values through it, the runtime asks its capabilities.
 */
public final class ProtocolDescriptor {
    private final String name;
    private final String title;
    private final String summary;
    private final Supplier<Protocol> factory;
    private final Set<Capability> capabilities;
    private final List<ProtocolOption> options;
    private final LongSupplier defaultLogQuota;

    private ProtocolDescriptor(Builder b) {
        this.name = Objects.requireNonNull(b.name, "name");
        this.summary = Objects.requireNonNull(b.summary, "summary");
        this.factory = Objects.requireNonNull(b.factory, "factory");
        this.title = b.title != null ? b.title : "--protocol " + b.name;
        this.capabilities = Collections.unmodifiableSet(
                b.capabilities != null ? EnumSet.copyOf(b.capabilities) : capabilitiesOf(factory.get()));
        this.options = List.copyOf(b.options);
        this.defaultLogQuota = b.defaultLogQuota;
        Set<String> names = new java.util.HashSet<>();
        for (ProtocolOption o : options) {
            if (!names.add(o.name())) {
                throw new IllegalArgumentException(name + " declares " + o.name() + " twice");
            }
        }
        if (capabilities.contains(Capability.BOUNDS_LOG) && defaultLogQuota == null) {
            throw new IllegalArgumentException(name + " bounds its log and needs a default quota");
        }
    }

    /**
     * A protocol with no options, its capabilities asked of a fresh instance (for a protocol made up
     * in a test; registered protocols declare theirs with {@link #builder}).
     */
    public ProtocolDescriptor(String name, String summary, Supplier<Protocol> factory) {
        this(builder(name, factory).summary(summary));
    }

    public static Builder builder(String name, Supplier<Protocol> factory) {
        return new Builder(name, factory);
    }

    /** The capabilities a protocol instance answers through its methods. */
    public static Set<Capability> capabilitiesOf(Protocol p) {
        Set<Capability> s = EnumSet.noneOf(Capability.class);
        if (p.recovers()) {
            s.add(Capability.RECOVERS);
        }
        if (p.checkpoints()) {
            s.add(Capability.CHECKPOINTS);
        }
        if (p.logsPayloads()) {
            s.add(Capability.LOGS_PAYLOADS);
        }
        if (p.logsDeterminants()) {
            s.add(Capability.LOGS_DETERMINANTS);
        }
        if (p.usesClusters()) {
            s.add(Capability.USES_CLUSTERS);
        }
        return s;
    }

    /** The name on the command line and in run records. */
    public String name() {
        return name;
    }

    /** A short noun phrase for messages ({@code memory-constrained logging}). */
    public String title() {
        return title;
    }

    /** One line on what a crash costs under it. */
    public String summary() {
        return summary;
    }

    public Set<Capability> capabilities() {
        return capabilities;
    }

    public boolean has(Capability c) {
        return capabilities.contains(c);
    }

    /** The options it declares, in the order it declares them. */
    public List<ProtocolOption> options() {
        return options;
    }

    /** The option called {@code optionName}, or null if it declares none by that name. */
    public ProtocolOption option(String optionName) {
        for (ProtocolOption o : options) {
            if (o.name().equals(optionName)) {
                return o;
            }
        }
        return null;
    }

    /**
     * For a protocol that {@linkplain Capability#BOUNDS_LOG bounds its log}: the quota of a job that
     * gives none (asked each time, so that a system property can change it).
     */
    public long defaultLogQuotaBytes() {
        if (defaultLogQuota == null) {
            throw new IllegalStateException(name + " does not bound its log");
        }
        return defaultLogQuota.getAsLong();
    }

    /** A new instance of the protocol, for one job. */
    public Protocol create() {
        return factory.get();
    }

    /** Whether the protocol recovers from crashes. */
    public boolean recovers() {
        return has(Capability.RECOVERS);
    }

    /**
     * The values the protocol runs with for a job of {@code ranks} ranks: every option it declares, as
     * given or by default, in canonical form and checked against the job. Values of options it does not
     * declare are dropped (a test sweeping every protocol may give one protocol's options to all; the
     * command line refuses them before they get here).
     *
     * @throws IllegalArgumentException with a one-line reason, for a value the protocol refuses
     */
    public ProtocolOptions resolve(ProtocolOptions given, int ranks) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ProtocolOption o : options) {
            String text = given.get(o.name());
            if (text == null) {
                text = o.defaultValue();
            }
            if (text == null) {
                continue;
            }
            String value = o.parse(text);
            o.fitsJob().accept(value, ranks);
            out.put(o.name(), value);
        }
        return new ProtocolOptions(out);
    }

    /**
     * Resolved values with those that depend on placement fixed from the node of each rank ({@code
     * nodeOfRank}, asked only if an option needs it), so that every rank process, and every later
     * placement after a node is lost, sees the same values.
     */
    public ProtocolOptions placed(ProtocolOptions resolved, Supplier<int[]> nodeOfRank) {
        ProtocolOptions out = resolved;
        for (ProtocolOption o : options) {
            String value = resolved.get(o.name());
            if (o.placement() != null && value != null) {
                out = out.with(o.name(), o.placement().apply(value, nodeOfRank.get()));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Collects a descriptor's parts. */
    public static final class Builder {
        private final String name;
        private final Supplier<Protocol> factory;
        private String title;
        private String summary;
        private Set<Capability> capabilities;
        private final List<ProtocolOption> options = new ArrayList<>();
        private LongSupplier defaultLogQuota;

        private Builder(String name, Supplier<Protocol> factory) {
            this.name = name;
            this.factory = factory;
        }

        /** A short noun phrase for messages (default: {@code --protocol NAME}). */
        public Builder title(String t) {
            this.title = t;
            return this;
        }

        /** One line on what a crash costs under the protocol. */
        public Builder summary(String s) {
            this.summary = s;
            return this;
        }

        /** What the protocol does (default: what a fresh instance answers). */
        public Builder capabilities(Capability first, Capability... rest) {
            this.capabilities = EnumSet.of(first, rest);
            return this;
        }

        /** No capabilities at all (no fault tolerance). */
        public Builder noCapabilities() {
            this.capabilities = EnumSet.noneOf(Capability.class);
            return this;
        }

        public Builder option(ProtocolOption o) {
            options.add(Objects.requireNonNull(o, "option"));
            return this;
        }

        /** For a protocol that bounds its log: the quota of a job that gives none. */
        public Builder defaultLogQuota(LongSupplier bytes) {
            this.defaultLogQuota = bytes;
            return this;
        }

        public ProtocolDescriptor build() {
            return new ProtocolDescriptor(this);
        }
    }
}
