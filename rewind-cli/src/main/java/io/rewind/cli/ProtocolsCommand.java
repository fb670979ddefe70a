package io.rewind.cli;

import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOption;
import io.rewind.ft.ProtocolRegistry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code rewind protocols}: the fault-tolerance protocols the registry holds, with what a crash costs,
 * what each does and the options of its own that {@code rewind run} takes.
 */
@Command(
        name = "protocols",
        mixinStandardHelpOptions = true,
        header = "Lists the fault-tolerance protocols, what a crash costs under each, and their options.",
        description = {
            "Lists the fault-tolerance protocols a job can run with (--protocol NAME): what a crash "
                    + "costs under each, what it does (its capabilities) and the options of its own that "
                    + "'rewind run' takes."
        })
final class ProtocolsCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Width of the text, the help's (COLUMNS or the terminal's, else 80). */
    private int width;

    @Override
    public Integer call() {
        width = spec.usageMessage().width();
        for (ProtocolDescriptor d : ProtocolRegistry.all()) {
            System.out.println(d.name() + (d.recovers() ? "" : " (no recovery)"));
            wrap("  ", d.summary());
            List<String> caps = new ArrayList<>();
            for (Capability c : d.capabilities()) {
                caps.add(c.label());
            }
            wrap("  capabilities: ", caps.isEmpty() ? "none" : String.join(", ", caps));
            for (ProtocolOption o : d.options()) {
                System.out.println("  " + o.name() + " " + o.paramLabel());
                wrap("      ", o.description());
            }
        }
        System.out.println();
        System.out.println("capabilities:");
        for (Capability c : Capability.values()) {
            wrap("  " + c.label() + ": ", c.description());
        }
        return 0;
    }

    /** {@code text} wrapped at word boundaries, the first line after {@code first}, the others indented alike. */
    private void wrap(String first, String text) {
        String indent = " ".repeat(first.length());
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String word : text.split("\\s+")) {
            if (!empty && line.length() + 1 + word.length() > width) {
                System.out.println(line);
                line = new StringBuilder(indent);
                empty = true;
            }
            line.append(empty ? "" : " ").append(word);
            empty = false;
        }
        System.out.println(line);
    }

    /** The registered names, for option help texts and completion. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return ProtocolRegistry.all().stream().map(ProtocolDescriptor::name).iterator();
        }
    }
}
