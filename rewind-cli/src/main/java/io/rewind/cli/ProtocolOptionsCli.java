package io.rewind.cli;

import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOption;
import io.rewind.ft.ProtocolRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options the registered protocols declare, as options of a command: the command line names no
 * protocol, each protocol's descriptor says what it takes. Picocli applies this once it has built a
 * command from its annotations ({@code @Command(modelTransformer = ...)}); the values land, as typed,
 * in the command's {@link FaultToleranceOptions}, which hands them to the job for the chosen
 * protocol's descriptor to read.
 */
final class ProtocolOptionsCli implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
        for (CommandSpec mixin : spec.mixins().values()) {
            if (mixin.userObject() instanceof FaultToleranceOptions ft) {
                addTo(spec, ft.protocolOptionValues);
                return spec;
            }
        }
        throw new IllegalStateException(spec.qualifiedName() + " has no fault-tolerance options to add to");
    }

    /** Adds one option per name any registered protocol declares; a given value goes into {@code values}. */
    static void addTo(CommandSpec spec, Map<String, String> values) {
        for (Map.Entry<String, List<ProtocolDescriptor>> e : byOption().entrySet()) {
            String name = e.getKey();
            ProtocolOption o = e.getValue().getFirst().option(name);
            spec.addOption(OptionSpec.builder(name)
                    .paramLabel(o.paramLabel())
                    // Picocli reads descriptions as format strings.
                    .description(o.description().replace("%", "%%"))
                    .type(String.class)
                    .hasInitialValue(false)
                    .setter(new CommandLine.Model.ISetter() {
                        @Override
                        public <T> T set(T value) {
                            if (value == null) {
                                values.remove(name);
                            } else {
                                values.put(name, (String) value);
                            }
                            return null;
                        }
                    })
                    .build());
        }
    }

    /** Who declares option {@code name}, for messages: "memory-constrained logging (--protocol x)". */
    static String owners(String name) {
        List<String> out = new ArrayList<>();
        for (ProtocolDescriptor d : byOption().getOrDefault(name, List.of())) {
            out.add(d.title() + " (--protocol " + d.name() + ")");
        }
        return String.join(" or ", out);
    }

    /** Every option name the registered protocols declare, with the protocols that declare it. */
    private static Map<String, List<ProtocolDescriptor>> byOption() {
        Map<String, List<ProtocolDescriptor>> out = new LinkedHashMap<>();
        for (ProtocolDescriptor d : ProtocolRegistry.all()) {
            for (ProtocolOption o : d.options()) {
                out.computeIfAbsent(o.name(), k -> new ArrayList<>()).add(d);
            }
        }
        return out;
    }
}
