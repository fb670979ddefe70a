package io.rewind.apps.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The campaign's report, as text for a reader and as JSON for a tool: the command, the seed, the
 * counts per protocol, launch mode, jitter, kind of program and kind of kill, and every failure with
 * its reproduction, how often it failed again, and its minimised reproduction as a command line and
 * as a JUnit example. Written again after every failure and at the end, each time in place atomically,
 * so that a campaign stopped early still leaves its figures.
 */
final class Report {
    /** What the report is about besides the tally. */
    record Header(long seed, CampaignOptions options, Instant started, Instant ended, boolean finished) {}

    private Report() {}

    static void write(Path dir, Header h, Tally t, int minimisingRuns) {
        try {
            Files.createDirectories(dir);
            String base = "sweep-" + Long.toUnsignedString(h.seed(), 16);
            replace(dir.resolve(base + ".txt"), text(h, t, minimisingRuns));
            replace(dir.resolve(base + ".json"), json(h, t, minimisingRuns));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void replace(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The campaign's command line again, with the seed it drew. */
    static String command(Header h) {
        CampaignOptions o = h.options();
        return "scripts/sweep.sh --minutes " + minutes(o.duration()) + " --workers " + o.workers() + " --seed "
                + h.seed() + " --processes-every " + o.processesEvery() + " --jitter "
                + o.jitter().name().toLowerCase() + " --jitter-micros " + o.jitterMicros();
    }

    private static String minutes(Duration d) {
        long ms = d.toMillis();
        return ms % 60_000 == 0 ? Long.toString(ms / 60_000) : Double.toString(ms / 60_000.0);
    }

    static String text(Header h, Tally t, int minimisingRuns) {
        StringBuilder b = new StringBuilder();
        Duration took = Duration.between(h.started(), h.ended());
        b.append("Rewind sweep").append(h.finished() ? "" : " (still running)").append("\n");
        b.append("command: ").append(command(h)).append('\n');
        b.append("started ")
                .append(h.started())
                .append(", ran ")
                .append(took.toMinutes())
                .append(" min ")
                .append(took.toSecondsPart())
                .append(" s\n");
        b.append("runs: ")
                .append(t.runs())
                .append(", failed: ")
                .append(t.failureCount())
                .append(", kills struck: ")
                .append(t.struck())
                .append(", reruns while minimising: ")
                .append(minimisingRuns)
                .append('\n');
        for (String d : Tally.DIMENSIONS) {
            b.append(String.format("%-9s", d + ":"));
            t.counts(d).forEach((k, c) -> b.append(' ')
                    .append(k)
                    .append(' ')
                    .append(c.runs())
                    .append(c.failures() > 0 ? " (" + c.failures() + " failed)" : "")
                    .append(','));
            b.setLength(b.length() - (b.charAt(b.length() - 1) == ',' ? 1 : 0));
            b.append('\n');
        }
        List<Tally.Failure> failures = t.failures();
        for (int i = 0; i < failures.size(); i++) {
            Tally.Failure f = failures.get(i);
            RunSpec s = f.outcome().spec();
            b.append("\n== failure ")
                    .append(i + 1)
                    .append(": run ")
                    .append(s.index())
                    .append('\n');
            b.append("   ").append(s.describe()).append('\n');
            b.append("   reproduce: ").append(s.commandLine()).append('\n');
            b.append("   compare with: ").append(s.referenceCommandLine()).append('\n');
            b.append("   ").append(f.outcome().failure().replace("\n", "\n   ")).append('\n');
            Minimiser.Result m = f.minimised();
            if (m == null) {
                b.append(h.finished() ? "   not minimised\n" : "   not minimised (yet)\n");
                continue;
            }
            b.append("   ").append(m.rate()).append('\n');
            b.append("   smallest: ").append(m.smallest().describe()).append('\n');
            b.append("   smallest command: ").append(m.smallest().commandLine()).append('\n');
            for (String line : m.log()) {
                b.append("     ").append(line).append('\n');
            }
            b.append("   as a JUnit example:\n      ")
                    .append(m.smallest().junitExample().replace("\n", "\n      "))
                    .append('\n');
        }
        return b.toString();
    }

    static String json(Header h, Tally t, int minimisingRuns) {
        StringBuilder b = new StringBuilder("{\n");
        field(b, "seed", Long.toString(h.seed()));
        field(b, "command", quote(command(h)));
        field(b, "started", quote(h.started().toString()));
        field(b, "ended", quote(h.ended().toString()));
        field(b, "finished", Boolean.toString(h.finished()));
        field(b, "workers", Integer.toString(h.options().workers()));
        field(b, "runs", Integer.toString(t.runs()));
        field(b, "failed", Integer.toString(t.failureCount()));
        field(b, "struck", Integer.toString(t.struck()));
        field(b, "minimisingRuns", Integer.toString(minimisingRuns));
        b.append("  \"counts\": {\n");
        for (int i = 0; i < Tally.DIMENSIONS.size(); i++) {
            String d = Tally.DIMENSIONS.get(i);
            b.append("    ").append(quote(d)).append(": {");
            Map<String, Tally.Count> counts = t.counts(d);
            int j = 0;
            for (Map.Entry<String, Tally.Count> e : counts.entrySet()) {
                b.append(j++ > 0 ? ", " : "")
                        .append(quote(e.getKey()))
                        .append(": {\"runs\": ")
                        .append(e.getValue().runs())
                        .append(", \"failed\": ")
                        .append(e.getValue().failures())
                        .append('}');
            }
            b.append('}').append(i + 1 < Tally.DIMENSIONS.size() ? "," : "").append('\n');
        }
        b.append("  },\n  \"failures\": [");
        List<Tally.Failure> failures = t.failures();
        for (int i = 0; i < failures.size(); i++) {
            Tally.Failure f = failures.get(i);
            b.append(i > 0 ? "," : "").append("\n    {");
            spec(b, f.outcome().spec());
            b.append(", \"failure\": ").append(quote(f.outcome().failure()));
            Minimiser.Result m = f.minimised();
            if (m != null) {
                b.append(", \"failedReruns\": ")
                        .append(m.failed())
                        .append(", \"reruns\": ")
                        .append(m.reruns());
                b.append(", \"smallest\": {");
                spec(b, m.smallest());
                b.append(", \"junit\": ")
                        .append(quote(m.smallest().junitExample()))
                        .append('}');
            }
            b.append('}');
        }
        b.append(failures.isEmpty() ? "]\n" : "\n  ]\n").append("}\n");
        return b.toString();
    }

    private static void spec(StringBuilder b, RunSpec s) {
        b.append("\"run\": ").append(s.index());
        b.append(", \"runSeed\": ").append(s.seed());
        b.append(", \"program\": ").append(quote(s.program().mainClass()));
        b.append(", \"args\": [");
        for (int i = 0; i < s.program().args().size(); i++) {
            b.append(i > 0 ? ", " : "").append(quote(s.program().args().get(i)));
        }
        b.append("], \"ranks\": ").append(s.program().ranks());
        b.append(", \"protocol\": ").append(quote(s.protocol()));
        b.append(", \"every\": ").append(s.program().checkpointEvery());
        b.append(", \"kills\": ").append(quote(s.killSpec()));
        b.append(", \"killKind\": ").append(quote(s.killKind().label));
        b.append(", \"launch\": ").append(quote(s.launcher().label));
        b.append(", \"jitterMicros\": ").append(s.jitterMicros());
        b.append(", \"command\": ").append(quote(s.commandLine()));
    }

    /** A top-level field; the object's last ones ("counts", "failures") are written apart. */
    private static void field(StringBuilder b, String name, String value) {
        b.append("  ").append(quote(name)).append(": ").append(value).append(",\n");
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
