package io.rewind.apps.sweep;

import io.rewind.ft.ClusterLayout;
import io.rewind.ft.mcml.McmlProtocol;
import io.rewind.runtime.FailureSchedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One run of the campaign, everything needed to run it again: the program, the protocol, the kills
 * (every one parseable by {@code --kill}), how the ranks are launched, the delivery jitter, and the
 * seed it was drawn from.
 *
 * @param index     the run's number in its campaign
 * @param seed      what the run was drawn from (the campaign's seed and the index)
 * @param killKind  how the kills were drawn ({@link KillDrawer.Kind})
 * @param jitterMicros the in-JVM transport's delivery jitter, in microseconds (0: off; always 0 for
 *                  rank processes, which talk over TCP)
 */
record RunSpec(
        int index,
        long seed,
        Program program,
        String protocol,
        FailureSchedule kills,
        KillDrawer.Kind killKind,
        Launcher launcher,
        int jitterMicros) {
    /** How the ranks run. */
    enum Launcher {
        /** Threads of the campaign's JVM, over the in-JVM transport. */
        THREADS("threads"),
        /** A JVM process per rank, under two local node agents, over TCP; a kill is a SIGKILL. */
        PROCESSES("processes");

        final String label;

        Launcher(String label) {
            this.label = label;
        }
    }

    /** Node agents a run of rank processes uses, so that replay crosses agents. */
    static final int NODES = 2;

    /** Per run of rank processes: they start slower and share two cores with everything else. */
    static final Duration PROCESS_LIMIT = Duration.ofSeconds(120);

    /** Rank processes are slower to start and to answer: a longer stall watch. */
    static final Duration PROCESS_STALL = Duration.ofSeconds(30);

    RunSpec {
        if (launcher == Launcher.PROCESSES && jitterMicros != 0) {
            throw new IllegalArgumentException(
                    "delivery jitter is a feature of the in-JVM transport, not of processes");
        }
    }

    RunSpec withKills(FailureSchedule k) {
        return new RunSpec(index, seed, program, protocol, k, killKind, launcher, jitterMicros);
    }

    RunSpec withProgram(Program p) {
        return new RunSpec(index, seed, p, protocol, kills, killKind, launcher, jitterMicros);
    }

    Duration limit() {
        return launcher == Launcher.PROCESSES ? PROCESS_LIMIT : program.limit();
    }

    Duration stall() {
        return launcher == Launcher.PROCESSES ? PROCESS_STALL : program.stall();
    }

    /** The clusters spbc runs with: the oracle's ({@code -Drewind.spbc.clusters}, else the default). */
    static String clusters() {
        return ClusterLayout.forTests().spec();
    }

    /** The kills as {@code --kill} takes them ("none" when there are none). */
    String killSpec() {
        return kills.isEmpty()
                ? "none"
                : kills.kills().stream().map(FailureSchedule.Kill::toString).collect(Collectors.joining(","));
    }

    /** The run as the command line runs it: {@code ./rewind run ...}. */
    String commandLine() {
        List<String> c = new ArrayList<>();
        if (jitterMicros > 0) {
            c.add("REWIND_JVM_OPTS=-Drewind.jitter=" + jitterMicros);
        }
        c.addAll(List.of("./rewind", "run", "-n", Integer.toString(program.ranks()), "--protocol", protocol));
        if (protocol.equals("spbc")) {
            c.addAll(List.of("--clusters", clusters()));
        }
        if (protocol.equals("mcml")) {
            // The command line asks for the quota that a job built in code gets by default.
            c.addAll(List.of("--log-quota", Long.toString(McmlProtocol.defaultQuotaBytes())));
        }
        if (program.checkpointEvery() > 0) {
            c.addAll(List.of("--checkpoint-every", Integer.toString(program.checkpointEvery())));
        }
        if (!kills.isEmpty()) {
            c.addAll(List.of("--kill", killSpec()));
        }
        if (launcher == Launcher.PROCESSES) {
            c.addAll(List.of("--launch", "local", "--nodes", Integer.toString(NODES)));
        }
        c.addAll(List.of(
                "--timeout",
                limit().toSeconds() + "s",
                "--stall-timeout",
                stall().toSeconds() + "s",
                "--summary",
                "--no-record",
                program.mainClass()));
        c.addAll(program.args());
        return String.join(" ", c);
    }

    /** The failure-free run the output of {@link #commandLine} is compared with. */
    String referenceCommandLine() {
        return "./rewind run -n " + program.ranks() + " --no-record " + program.mainClass()
                + (program.args().isEmpty() ? "" : " " + String.join(" ", program.args()));
    }

    /** The same run as a JUnit example, in the style of the oracle's tests. */
    String junitExample() {
        String launch =
                switch (launcher) {
                    case PROCESSES -> ", c -> ProcessJob.run(c, Launch.local(" + NODES + "))";
                    case THREADS -> jitterMicros > 0
                            ? ", c -> DeliveryJitter.around(" + jitterMicros + ", () -> Job.run(c))"
                            : "";
                };
        String args = program.args().stream().map(a -> '"' + a + '"').collect(Collectors.joining(", "));
        return String.join(
                "\n",
                "@Example",
                "void sweepRun" + Long.toHexString(seed).toUpperCase() + "() {",
                "    JobConfig job = JobConfig.builder(\"" + program.mainClass() + "\")",
                "            .ranks(" + program.ranks() + ")",
                "            .args(" + args + ")",
                "            .timeout(Duration.ofSeconds(" + limit().toSeconds() + "))",
                "            .stallTimeout(Duration.ofSeconds(" + stall().toSeconds() + "))",
                "            .option(\"--clusters\", ClusterLayout.forTests().spec())",
                "            .quiet()",
                "            .build();",
                "    RecoveryCheck.Verdict v = RecoveryCheck.of(job).run(ProtocolRegistry.get(\"" + protocol + "\"), "
                        + program.checkpointEvery() + ", FailureSchedule.parse(\""
                        + (kills.isEmpty() ? "" : killSpec()) + "\", " + program.ranks() + ")" + launch + ");",
                "    assertTrue(v.ok(), v.describe());",
                "}");
    }

    /** One line: the program, protocol, kills, launch and jitter. */
    String describe() {
        return program + ", " + protocol + ", kills " + killSpec() + " (" + killKind.label + "), " + launcher.label
                + (jitterMicros > 0 ? ", jitter " + jitterMicros + " us" : "") + ", run seed " + seed;
    }
}
