package io.rewind.cli;

import io.rewind.launch.Launch;
import io.rewind.launch.LaunchModes;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rewind run}: launches an SPMD job. */
@Command(
        name = "run",
        header = "Runs an MPI program on N ranks, recovering the ranks that fail.",
        mixinStandardHelpOptions = true,
        modelTransformer = RunOptionGroups.class,
        description = {
            // One paragraph, which picocli wraps to the terminal's width.
            "Runs MAIN_CLASS on N ranks, each an isolated thread of this JVM with its own copy of the "
                    + "program's static state. Output lines are prefixed with [rank]. The exit status is 0 when "
                    + "every rank returned normally after MPI.Finalize, the abort code when a rank called "
                    + "Comm.abort, 124 on timeout, and 1 for any other failure.",
            "",
            "Examples:",
            "  rewind run -n 4 io.rewind.apps.examples.Hello",
            "  rewind run -n 8 -cp myapp.jar com.example.Main arg1 arg2",
            "  rewind run -n 4 --protocol NAME --checkpoint-every 20 --kill 2@130 \\",
            "      io.rewind.apps.workloads.Stencil2D 256 200",
            "NAME is a protocol that recovers: 'rewind protocols' lists them, with the options of their own "
                    + "that follow.",
            ""
        })
final class RunCommand implements Callable<Integer> {
    @Option(
            names = {"-n", "-np", "--np"},
            paramLabel = "N",
            defaultValue = "1",
            description = "Number of ranks (default: ${DEFAULT-VALUE}).")
    int ranks;

    @Option(
            names = {"-cp", "--classpath"},
            paramLabel = "CLASSPATH",
            description = "Where the program's classes are (jars and folders, separated by the platform's path "
                    + "separator). Default: the examples and workloads shipped with Rewind.")
    String classPath;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "PT24H",
            converter = DurationConverter.class,
            description = "Abort the job after this long, e.g. 90s, 10m, 2h (default: 24h).")
    Duration timeout;

    @Option(
            names = "--stall-timeout",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = DurationConverter.class,
            description = "Abort the job, saying where each rank waits, once every rank that has not ended has "
                    + "waited inside MPI this long with none making an operation (a deadlock); 0 never does "
                    + "(default: 5m).")
    Duration stallTimeout;

    @Option(names = "--no-tag-output", description = "Do not prefix output lines with [rank].")
    boolean noTag;

    @Option(
            names = "--eager-limit",
            paramLabel = "SIZE",
            description = "Largest message sent eagerly, e.g. 64KiB (larger ones wait for their receive and are "
                    + "copied once). Default: 64KiB.")
    String eagerLimit;

    @picocli.CommandLine.Mixin
    FaultToleranceOptions ft = new FaultToleranceOptions();

    @Option(
            names = "--summary",
            description = "Print the run summary (checkpoints, logs, recoveries) on standard error at the end "
                    + "(it is whenever the job had failures).")
    boolean summary;

    @picocli.CommandLine.Mixin
    WatchOptions watching = new WatchOptions();

    @Option(
            names = "--record",
            paramLabel = "FILE",
            description = "Where the JSON run record goes (rewind report "
                    + "--run FILE plots it). Default: run-record.json in --checkpoint-dir if given, else a "
                    + "file in rewind-runs-USER in the temporary folder, which keeps the newest "
                    + RecentRunRecords.KEPT
                    + " runs' records.")
    Path record;

    @Option(names = "--no-record", description = "Do not write the run record.")
    boolean noRecord;

    @Option(
            names = "--profile",
            paramLabel = "FILE",
            description = "Also write the run's communication profile (point-to-point and collective traffic per "
                    + "channel, as 'rewind bench profile' does) to FILE, for 'rewind analyze'.")
    Path profile;

    @Option(
            names = "--launch",
            paramLabel = "MODE",
            description = "How ranks run: threads (threads of this JVM, the default), local (one process "
                    + "per rank on this machine, over TCP; a crash is a real process death), ssh (processes on the "
                    + "hosts of --hostfile, started over ssh; the default with --hostfile) or slurm (processes on "
                    + "the nodes of the Slurm allocation this runs in, started with srun), or another way of launching "
                    + "on the class path (see 'Launch modes' in docs/architecture.md).")
    String launch;

    @Option(
            names = "--hostfile",
            paramLabel = "FILE",
            description = "The hosts, in Open MPI's hostfile syntax (host [slots=N] per line): ranks as processes "
                    + "on them, started over ssh (--hostfile alone means --launch ssh).")
    Path hostfile;

    @Option(
            names = "--jvm-option",
            paramLabel = "OPTION",
            description = "With ranks as processes: an option for every rank's JVM, e.g. --jvm-option=-Xmx2g, "
                    + "--jvm-option=-Dkey=value (repeatable). JVM options after a 'java' word before MAIN_CLASS go "
                    + "there too.")
    List<String> jvmOptions = new ArrayList<>();

    @Option(
            names = {"-x", "--env"},
            paramLabel = "NAME[=VALUE]",
            description = "With ranks as processes: set NAME in every rank's environment, to VALUE or, with "
                    + "NAME alone, to its value here (repeatable; as Open MPI's -x).")
    List<String> environment = new ArrayList<>();

    /** The command's name in its messages: {@code rewind mpirun} runs its job through this one. */
    String commandName = "rewind run";

    @Option(
            names = "--rsh",
            paramLabel = "COMMAND",
            defaultValue = "ssh -o BatchMode=yes",
            description = "With --launch ssh: the command that runs a command on a host, the host appended "
                    + "(default: ${DEFAULT-VALUE}), e.g. \"ssh -F cluster.conf\".")
    String rsh;

    @Option(
            names = "--nodes",
            paramLabel = "K",
            defaultValue = "1",
            description = "With --launch local: how many node agents share the ranks (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
            names = "--lose-node",
            paramLabel = "RANK@WHEN",
            description = "With --launch local and --nodes 2 or more: when this kill (same syntax as --kill) "
                    + "strikes RANK, its whole node is lost: the node's agent and every rank process on it are "
                    + "killed with SIGKILL, and its ranks restart on the other nodes.")
    String loseNode;

    @Option(
            names = "--freeze-node",
            paramLabel = "RANK@WHEN",
            description = "With --launch local and --nodes 2 or more: when this kill (same syntax as --kill) "
                    + "strikes RANK, its whole node stops answering: the node's agent and every rank process on "
                    + "it are stopped with SIGSTOP. Only the heartbeats find it; then its ranks restart on the "
                    + "other nodes.")
    String freezeNode;

    @Option(
            names = "--heartbeat-timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "With ranks as processes: how long a node agent may stay silent before its node is "
                    + "taken for lost (and how long an agent waits for a silent launcher before it ends its "
                    + "ranks); e.g. 10s (the default), 1500ms.")
    Duration heartbeatTimeout;

    @Option(
            names = "--suspicion-threshold",
            paramLabel = "PHI",
            description = "With ranks as processes: how suspicious a silence must be, against the rhythm of the "
                    + "heartbeats so far (phi: -log10 of the chance that a live peer would be that late), for a "
                    + "node (or, as an agent sees it, the launcher) to be probed, and taken for lost before the "
                    + "heartbeat timeout if the probe goes unanswered; 0 leaves the timeout alone to decide "
                    + "(default: 8).")
    Double suspicionThreshold;

    @Option(
            names = "--node-checkpoint-root",
            paramLabel = "DIR",
            description = "With ranks as processes and no --checkpoint-dir: where each node makes its own "
                    + "checkpoint folder (a path valid on every host, e.g. a local disk; default: the host's "
                    + "temporary folder). The folder is removed when the job ends.")
    String nodeCheckpointRoot;

    @Option(
            names = "--shm",
            negatable = true,
            description = "With ranks as processes: rank processes of one host talk through shared memory (one "
                    + "ring per ordered pair of ranks, in memory files of a folder only the job's user can open), "
                    + "ranks of other hosts over TCP. --no-shm (the default for now): TCP between all ranks.")
    Boolean shm;

    @Parameters(
            index = "0",
            paramLabel = "MAIN_CLASS",
            description = "Class whose main method every rank runs (a 'java' word before it, as in 'java -Xmx2g -cp "
                    + "app.jar Main' or 'java -jar app.jar', is read as the java launcher reads it).")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments passed to every rank.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        try {
            readJavaWord();
        } catch (IllegalArgumentException e) {
            System.err.println(commandName + ": " + e.getMessage());
            return 2;
        }
        JobConfig.Builder b = JobConfig.builder(mainClass)
                .ranks(ranks)
                .args(args)
                .timeout(timeout)
                .stallTimeout(stallTimeout)
                .tagOutput(!noTag);
        if (classPath != null) {
            List<Path> entries = new ArrayList<>();
            for (String e : classPath.split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    entries.add(Path.of(e));
                }
            }
            b.classPath(entries);
        }
        JobConfig config;
        Launch processes;
        io.rewind.runtime.watch.JobWatch watch = null;
        try {
            if (eagerLimit != null) {
                b.engine(io.rewind.engine.EngineConfig.forRanks(ranks)
                        .withEagerLimit((long) FaultToleranceOptions.size("--eager-limit", eagerLimit)));
            }
            String mode = launchMode();
            processes = mode.equals("threads")
                    ? null
                    : LaunchModes.launch(
                            mode,
                            new LaunchModes.Options(
                                    nodes, hostfile, List.of(rsh.trim().split("\\s+"))));
            ft.applyTo(b, ranks);
            if (!noRecord) {
                b.recordFile(
                        record != null
                                ? record
                                : ft.checkpointDir != null
                                        ? ft.checkpointDir.resolve("run-record.json")
                                        : RecentRunRecords.next(RecentRunRecords.defaultFolder()));
            }
            watch = watching.watch(mainClass, ranks, b);
            config = b.build();
            refuseReserveOverMemory(config, processes);
            java.util.Optional<String> noMain = io.rewind.launch.MainClassCheck.problem(
                    config.program().mainClass(), config.program().classPath(), RunCommand.class.getClassLoader());
            if (noMain.isPresent()) {
                throw new IllegalArgumentException(noMain.get());
            }
            io.rewind.launch.RankJvm rankJvm =
                    new io.rewind.launch.RankJvm(jvmOptions, RankEnvironment.of(environment));
            if (!rankJvm.isEmpty()) {
                if (processes == null) {
                    throw new IllegalArgumentException(
                            (jvmOptions.isEmpty() ? "--env for the ranks needs" : "JVM options for the ranks need")
                                    + " ranks as processes, which threads of this JVM are not: add --launch local");
                }
                processes = processes.withRankJvm(rankJvm);
            }
            if (!config.logging().loggers().hosts().isEmpty()
                    && (processes == null || processes.mode().onThisHost())) {
                throw new IllegalArgumentException(
                        "--logger-hosts places logger processes on the hosts of --launch ssh "
                                + "or slurm; on one machine they run beside the launcher");
            }
            if (loseNode != null) {
                if (processes == null) {
                    throw new IllegalArgumentException(
                            "--lose-node needs ranks as processes (--launch local, ssh or slurm)");
                }
                processes = processes.losingNodes(FailureSchedule.parse(loseNode, ranks));
            }
            if (freezeNode != null) {
                if (processes == null) {
                    throw new IllegalArgumentException(
                            "--freeze-node needs ranks as processes (--launch local, ssh or slurm)");
                }
                processes = processes.freezingNodes(FailureSchedule.parse(freezeNode, ranks));
            }
            if (nodeCheckpointRoot != null) {
                if (processes == null) {
                    throw new IllegalArgumentException(
                            "--node-checkpoint-root needs ranks as processes (--launch local, ssh or slurm)");
                }
                if (config.faultTolerance().checkpointDir() != null) {
                    throw new IllegalArgumentException(
                            "--node-checkpoint-root and --checkpoint-dir exclude each other: a shared folder "
                                    + "needs no node folders");
                }
                processes = processes.withNodeCheckpointRoot(nodeCheckpointRoot);
            }
            if (shm != null && shm && processes == null) {
                throw new IllegalArgumentException("--shm needs ranks as processes (--launch local, ssh or slurm)");
            }
            if (processes != null) {
                processes = processes.withSharedMemory(shm != null && shm);
            }
            if (heartbeatTimeout != null) {
                if (processes == null) {
                    throw new IllegalArgumentException(
                            "--heartbeat-timeout needs ranks as processes (--launch local, ssh or slurm)");
                }
                processes = processes.withHeartbeatTimeout(heartbeatTimeout);
            }
            if (suspicionThreshold != null) {
                if (processes == null) {
                    throw new IllegalArgumentException(
                            "--suspicion-threshold needs ranks as processes (--launch local, ssh or slurm)");
                }
                processes = processes.withSuspicionThreshold(suspicionThreshold);
            }
        } catch (IllegalArgumentException e) {
            System.err.println(commandName + ": " + e.getMessage());
            return 2;
        }
        JobResult result = processes == null ? Job.run(config, watch) : ProcessJob.run(config, processes, watch);
        if (profile != null) {
            try {
                io.rewind.tools.profile.ProfileWriter.write(
                        io.rewind.cli.bench.ProfileBench.profileOf(result.report()), profile);
            } catch (RuntimeException e) {
                System.err.println(commandName + ": cannot write the profile " + profile + ": " + e.getMessage());
            }
        }
        // On standard error, so that standard output stays the program's own.
        watching.summary(
                "rewind: " + result.report().summary()
                        + (config.recordFile() == null
                                ? ""
                                : "\nrewind: run record " + config.recordFile()
                                        + " (rewind report --run FILE plots it)"),
                summary || !config.faultTolerance().failures().isEmpty() || loseNode != null || freezeNode != null);
        if (!result.ok()) {
            System.err.print(
                    commandName + ": job failed (exit " + result.exitCode() + ")\n" + result.describeFailures());
        }
        return result.exitCode();
    }

    /**
     * A stray {@code java} word before the main class ({@code rewind run -n 4 java -cp X Main}): what
     * follows it is read as the java launcher reads it, its JVM options going to the ranks' JVMs.
     */
    private void readJavaWord() {
        if (mainClass == null || !JavaCommand.isJava(mainClass)) {
            return;
        }
        JavaCommand java = JavaCommand.parse(args);
        if (java.classPath() != null) {
            if (classPath != null) {
                throw new IllegalArgumentException(
                        "two class paths: -cp before the 'java' word and -cp or -jar after it; give one");
            }
            classPath = java.classPath();
        }
        jvmOptions.addAll(java.jvmOptions());
        mainClass = java.mainClass();
        args = new ArrayList<>(java.args());
    }

    /** {@code --launch}, or ssh for a hostfile alone, else threads; a hostfile with another mode is refused. */
    private String launchMode() {
        if (launch == null) {
            return hostfile != null ? "ssh" : "threads";
        }
        String mode = launch.toLowerCase(java.util.Locale.ROOT);
        if (hostfile != null && !mode.equals("ssh")) {
            throw new IllegalArgumentException(
                    "--hostfile places ranks over ssh, but --launch is " + launch + ": drop one of them");
        }
        return mode;
    }

    /**
     * Refuses a log reserve this machine cannot hold before anything starts: the ranks that run here
     * (all of them as threads or as local processes; one per process elsewhere, on machines taken to
     * be like this one) would fault in more memory than it has, and the kernel would kill the job.
     */
    private static void refuseReserveOverMemory(JobConfig config, Launch processes) {
        long reserve = config.logging().payloadLog().reserveBytes();
        long total = io.rewind.ft.log.SystemMemory.totalBytes();
        if (reserve <= 0 || total <= 0) {
            return;
        }
        boolean allHere = processes == null || processes.mode().onThisHost();
        int here = allHere ? config.ranks() : 1;
        if ((double) reserve * here > total) {
            throw new IllegalArgumentException(String.format(
                    java.util.Locale.ROOT,
                    "--log-reserve %d MiB for %d rank(s) on this machine is %d MiB, more than its %d MiB of memory",
                    reserve >> 20,
                    here,
                    (reserve >> 20) * here,
                    total >> 20));
        }
    }
}
