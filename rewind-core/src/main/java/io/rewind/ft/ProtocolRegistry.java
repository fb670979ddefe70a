package io.rewind.ft;

import io.rewind.ft.causal.CausalProtocol;
import io.rewind.ft.global.GlobalRollbackProtocol;
import io.rewind.ft.mcml.McmlProtocol;
import io.rewind.ft.none.NoProtocol;
import io.rewind.ft.pessimistic.PessimisticProtocol;
import io.rewind.ft.spbc.SpbcProtocol;
import java.util.ArrayList;
import java.util.List;

/**
 * The protocols a job can run with, by name. Adding a protocol is one package and one line here;
 * the command line, the recovery oracle and the test suites list what this holds.
 */
public final class ProtocolRegistry {
    private static final List<ProtocolDescriptor> PROTOCOLS = List.of(
            new ProtocolDescriptor("none", "no fault tolerance: a crash aborts the job", NoProtocol::new),
            new ProtocolDescriptor(
                    "global",
                    "coordinated checkpoints: every rank rolls back to the newest line all " + "ranks hold",
                    GlobalRollbackProtocol::new),
            new ProtocolDescriptor(
                    "pessimistic",
                    "sender-based payload logging and an event logger: only the "
                            + "crashed rank rolls back, survivors replay its messages",
                    PessimisticProtocol::new),
            new ProtocolDescriptor(
                    "causal",
                    "sender-based payload logging with determinants piggybacked on messages, no event "
                            + "logger: only the crashed rank rolls back, survivors replay its messages and "
                            + "return its determinants",
                    CausalProtocol::new),
            new ProtocolDescriptor(
                    "mcml",
                    "memory-constrained causal logging: under --log-quota, a rank stops logging its "
                            + "heaviest (or nearest) channels; a crash rolls back the ranks whose channels to "
                            + "it are not logged, transitively",
                    McmlProtocol::new),
            new ProtocolDescriptor(
                    "spbc",
                    "hierarchical, for channel-deterministic programs: coordinated checkpoints inside "
                            + "clusters, messages between clusters logged at the sender, no determinants; "
                            + "the failed rank's cluster rolls back",
                    SpbcProtocol::new));

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
