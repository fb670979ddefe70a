package io.rewind.cli;

import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code rewind protocols}: the fault-tolerance protocols the registry holds, with what a crash costs. */
@Command(
        name = "protocols",
        mixinStandardHelpOptions = true,
        description = "Lists the fault-tolerance protocols a job can run with (--protocol NAME).")
final class ProtocolsCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        int width = 0;
        for (ProtocolDescriptor d : ProtocolRegistry.all()) {
            width = Math.max(width, d.name().length());
        }
        for (ProtocolDescriptor d : ProtocolRegistry.all()) {
            System.out.printf("%-" + width + "s  %s%s%n", d.name(), d.summary(), d.recovers() ? "" : " (no recovery)");
        }
        return 0;
    }

    /** The registered names, for option help texts and completion. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return ProtocolRegistry.all().stream().map(ProtocolDescriptor::name).iterator();
        }
    }
}
