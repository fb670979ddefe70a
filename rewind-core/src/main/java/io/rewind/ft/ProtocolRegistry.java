package io.rewind.ft;

import io.rewind.ft.causal.CausalProtocol;
import io.rewind.ft.global.GlobalRollbackProtocol;
import io.rewind.ft.mcml.McmlProtocol;
import io.rewind.ft.none.NoProtocol;
import io.rewind.ft.pessimistic.PessimisticProtocol;
import io.rewind.ft.spbc.SpbcProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The protocols a job can run with, by name. Adding a protocol is one package (whose descriptor
 * declares its options and capabilities) and one line here, or, for a protocol outside this module,
 * one line naming its {@link ProtocolProvider} in {@code META-INF/services/io.rewind.ft.ProtocolProvider};
 * the command line, the recovery oracle and the test suites list what this holds.
 */
public final class ProtocolRegistry {
    private static final List<ProtocolDescriptor> PROTOCOLS = withProviders(List.of(
            NoProtocol.descriptor(),
            GlobalRollbackProtocol.descriptor(),
            PessimisticProtocol.descriptor(),
            CausalProtocol.descriptor(),
            McmlProtocol.descriptor(),
            SpbcProtocol.descriptor()));

    /** The protocol without fault tolerance, the baseline every other one is compared with. */
    public static final ProtocolDescriptor NONE = get("none");

    private ProtocolRegistry() {}

    /** Every registered protocol, in the order above. */
    public static List<ProtocolDescriptor> all() {
        return PROTOCOLS;
    }

    /** The registered protocols that recover from crashes. */
    public static List<ProtocolDescriptor> recovering() {
        List<ProtocolDescriptor> out = new ArrayList<>();
        for (ProtocolDescriptor d : PROTOCOLS) {
            if (d.recovers()) {
                out.add(d);
            }
        }
        return out;
    }

    /** Registered names, comma-separated, for messages and help texts. */
    public static String names() {
        List<String> names = new ArrayList<>();
        for (ProtocolDescriptor d : PROTOCOLS) {
            names.add(d.name());
        }
        return String.join(", ", names);
    }

    /** The registered protocols that have capability {@code c}. */
    public static List<ProtocolDescriptor> with(Capability c) {
        List<ProtocolDescriptor> out = new ArrayList<>();
        for (ProtocolDescriptor d : PROTOCOLS) {
            if (d.has(c)) {
                out.add(d);
            }
        }
        return out;
    }

    /** The names of the registered protocols that have capability {@code c}, for messages: "a, b or c". */
    public static String namesWith(Capability c) {
        List<String> names = with(c).stream().map(ProtocolDescriptor::name).toList();
        if (names.size() <= 1) {
            return String.join("", names);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    }

    /** The built-in protocols, then those the class path provides, refusing a name given twice. */
    private static List<ProtocolDescriptor> withProviders(List<ProtocolDescriptor> builtIn) {
        List<ProtocolDescriptor> all = new ArrayList<>(builtIn);
        for (ProtocolProvider p : ServiceLoader.load(ProtocolProvider.class, ProtocolRegistry.class.getClassLoader())) {
            ProtocolDescriptor d = p.descriptor();
            for (ProtocolDescriptor known : all) {
                if (known.name().equalsIgnoreCase(d.name())) {
                    throw new IllegalStateException("two protocols are called " + d.name() + " ("
                            + p.getClass().getName() + ")");
                }
            }
            all.add(d);
        }
        return List.copyOf(all);
    }

    /**
     * The protocol named {@code name} (case and surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming the registered protocols, if there is none by that name
     */
    public static ProtocolDescriptor get(String name) {
        String want = name == null ? "" : name.trim();
        for (ProtocolDescriptor d : PROTOCOLS) {
            if (d.name().equalsIgnoreCase(want)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + name + "' (registered: " + names() + ")");
    }
}
