package io.rewind.launch;

import io.rewind.launch.liveness.PeerWatch;
import io.rewind.transport.HeldFolders;
import io.rewind.transport.JobSecret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The small per-node part of a job, as Open MPI's daemons are: started on each node (as a local
 * process, over ssh, or by srun), it starts the rank processes the launcher places on its node,
 * forwards their output line by line, tells the launcher the moment one exits, and kills one with
 * SIGKILL when told to. It also runs the node's checkpoint service ({@link NodeStore}): the node's
 * ranks write their checkpoints through it, and it copies them to a partner node. If the launcher
 * goes away, it kills its ranks and ends: nothing of a job outlives its launcher.
 */
public final class NodeAgent {
    /** The start of every node checkpoint folder's name: {@code rewind-node-NAME-RANDOM}. */
    private static final String NODE_FOLDER_PREFIX = "rewind-node-";

    /** How long a node folder nobody holds must have stayed unchanged before a new agent removes it. */
    private static final Duration STALE_FOLDER_AFTER = Duration.ofMinutes(2);

    private final String node;
    private final Link link;
    private final String javaCommand;
    private final String classPath;
    /** What follows the main class on a rank process's command line, but its rank and incarnation. */
    private final List<String> rankArguments;
    /** The user's JVM options and environment variables for every rank process. */
    private final RankJvm rankJvm;

    private final ClassDataArchive archive;
    /** The rank process writing the class-data archive, if one is; at most one at a time per agent. */
    private Process archiveWriter;

    private final NodeStore store;
    /** Handed to every rank process on its standard input: the job's secret never lies in a file here. */
    private final JobSecret secret;

    /** Judges the launcher by what the link hears from it. */
    private final PeerWatch launcher;

    private final Map<Long, Process> processes = new ConcurrentHashMap<>();
    private final CountDownLatch done = new CountDownLatch(1);

    private NodeAgent(
            String node,
            Link link,
            String java,
            String classPath,
            List<String> rankArguments,
            RankJvm rankJvm,
            NodeStore store,
            JobSecret secret,
            PeerWatch.Settings watch) {
        this.node = node;
        this.link = link;
        this.javaCommand = java;
        this.classPath = classPath;
        this.rankArguments = rankArguments;
        this.rankJvm = rankJvm;
        this.archive = ClassDataArchive.of(java, classPath);
        this.store = store;
        this.secret = secret;
        this.launcher = new PeerWatch(watch, System::nanoTime);
    }

    /**
     * {@code --head HOST:PORT --node NAME --secret-file FILE --java JAVA --class-path CP --keep-lines N
     * --heartbeat-millis T [--suspicion-threshold PHI] [--rank-jvm SETTINGS] [--checkpoint-dir DIR |
     * --node-checkpoint-root ROOT]}: SETTINGS ({@link RankJvm}) are the user's JVM options and
     * environment for every rank process;
     * a launcher silent for longer than T is taken for gone, or earlier, at a suspicion level of PHI
     * and an unanswered probe ({@link PeerWatch}); with a checkpoint folder every node shares, the node keeps its ranks'
     * lines there; without, in a folder of its own on this host, with a copy on a partner node. The secret
     * file {@code -} means standard input (an agent started over ssh or by srun). The agent hands the
     * secret to its rank processes on their standard input, so that a node lost with its agent (killed,
     * powered off) leaves no copy of it behind. A node named {@code slurm}
     * takes the name Slurm gives it ({@code SLURMD_NODENAME}).
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = Args.parse(
                args,
                "--head",
                "--node",
                "--secret-file",
                "--java",
                "--class-path",
                "--keep-lines",
                "--heartbeat-millis");
        String head = a.get("--head");
        String node = a.get("--node");
        if (node.equals("slurm")) {
            node = System.getenv("SLURMD_NODENAME");
            if (node == null) {
                throw new IllegalStateException("--node slurm outside a Slurm step (no SLURMD_NODENAME)");
            }
        }
        JobSecret secret = JobSecret.fromArgument(a.get("--secret-file"));
        Link link = Link.connect(Args.address(head), secret, "agent-" + node);
        String sharedDir = a.get("--checkpoint-dir");
        NodeStore store = new NodeStore(
                node,
                secret,
                sharedDir != null ? Path.of(sharedDir) : ownFolder(node, a.get("--node-checkpoint-root")),
                sharedDir != null,
                Integer.parseInt(a.get("--keep-lines")),
                link.localAddress());
        List<String> rankArguments = new ArrayList<>(List.of(
                "--head",
                head,
                "--secret-file",
                "-",
                "--store",
                store.address().getAddress().getHostAddress() + ":"
                        + store.address().getPort()));
        if (a.containsKey("--jfr-folder")) {
            // The job is recorded with JFR: every rank process records itself into this folder.
            rankArguments.addAll(List.of("--jfr-folder", a.get("--jfr-folder")));
        }
        NodeAgent agent = new NodeAgent(
                node,
                link,
                a.get("--java"),
                a.get("--class-path"),
                rankArguments,
                a.containsKey("--rank-jvm") ? RankJvm.decode(a.get("--rank-jvm")) : RankJvm.NONE,
                store,
                secret,
                PeerWatch.Settings.of(
                        Duration.ofMillis(Long.parseLong(a.get("--heartbeat-millis"))),
                        Double.parseDouble(a.getOrDefault(
                                "--suspicion-threshold", Double.toString(Launch.DEFAULT_SUSPICION_THRESHOLD)))));
        try {
            agent.run();
        } finally {
            store.close();
            // The job is over (or its launcher gone): the memory files of its ranks on this host go too.
            io.rewind.transport.shm.ShmFolder.removeFolder(io.rewind.transport.shm.ShmFolder.root(), secret);
        }
        Runtime.getRuntime().halt(0);
    }

    /**
     * The node's own checkpoint folder: new, under {@code root} (null: the temporary folder), held by this
     * agent for as long as it lives. The folders that agents of dead jobs left there go first: a node lost
     * with its agent (killed, or its job killed whole) cannot remove its own, and over ssh or under Slurm
     * no one else can reach it until the next job's agent on that host does (see {@link HeldFolders}).
     */
    static Path ownFolder(String node, String root) throws IOException {
        Path parent =
                root == null ? Path.of(System.getProperty("java.io.tmpdir")) : Files.createDirectories(Path.of(root));
        HeldFolders.removeStale(parent, NODE_FOLDER_PREFIX, STALE_FOLDER_AFTER);
        Path folder = Files.createTempDirectory(parent, NODE_FOLDER_PREFIX + node + "-");
        boolean held;
        try {
            held = HeldFolders.hold(folder);
        } catch (IOException e) {
            // A file system without locks (some network mounts): no sweep can judge this folder either
            // (it cannot lock it), so it is safe, only not cleaned up after a lost node.
            System.err.println("rewind: agent " + node + ": cannot lock " + folder + " (" + e.getMessage()
                    + "): it stays there if this node is lost");
            return folder;
        }
        if (!held) {
            throw new IOException(folder + " was removed as a dead job's the moment it was made");
        }
        return folder;
    }

    private void run() throws InterruptedException, IOException {
        link.watchWith(launcher);
        // The reader only reads (and answers probes): what a message asks for, starting a rank process
        // above all, can take a second on a loaded host, and the launcher's heartbeats read meanwhile
        // must not wait behind it, or the launcher would look silent for this node's own slowness.
        java.util.concurrent.ExecutorService work =
                java.util.concurrent.Executors.newSingleThreadExecutor(Thread.ofPlatform()
                        .name("rewind-agent-work-" + node)
                        .daemon(true)
                        .factory());
        link.startReader(
                m -> work.execute(() -> {
                    try {
                        onMessage(m);
                    } catch (RuntimeException e) {
                        // As a message that breaks the reader does: the link ends, and the node with it.
                        System.err.println("rewind: agent " + node + ": " + Link.UNHANDLED + e);
                        e.printStackTrace();
                        link.close();
                    }
                }),
                why -> done.countDown());
        Thread.ofPlatform().name("rewind-agent-heartbeat-" + node).daemon(true).start(this::heartbeats);
        link.send(new Messages.AgentHello(
                node,
                InetAddress.getLocalHost().getHostName(),
                ProcessHandle.current().pid(),
                store.address().getAddress().getHostAddress(),
                store.address().getPort(),
                store.folder().toString()));
        done.await();
        for (Process p : processes.values()) {
            p.destroyForcibly();
        }
        for (Process p : processes.values()) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Tells the launcher this node is alive, five times a timeout, and judges the launcher by what the
     * link hears from it; a launcher taken for lost (its host hung, or cut off) ends this node's ranks.
     */
    private void heartbeats() {
        long every = launcher.settings().checkEvery().toNanos();
        long beatEvery = launcher.settings().heartbeat().toNanos();
        long nextBeat = System.nanoTime();
        while (done.getCount() > 0) {
            if (System.nanoTime() - nextBeat >= 0) {
                link.send(new Messages.Heartbeat());
                nextBeat += beatEvery;
                if (System.nanoTime() - nextBeat >= 0) {
                    nextBeat = System.nanoTime() + beatEvery; // held up past a beat: no burst to catch up
                }
            }
            PeerWatch.Verdict v = launcher.check();
            switch (v.action()) {
                case PROBE -> {
                    System.err.println("rewind: agent " + node + ": suspecting the launcher: " + v.why() + ": probing");
                    link.probe(v.probe());
                }
                case LOST -> {
                    System.err.println("rewind: agent " + node + ": the launcher is taken for lost: " + v.why()
                            + ": ending this node's ranks");
                    link.close();
                    done.countDown();
                    return;
                }
                case NONE -> {}
            }
            java.util.concurrent.locks.LockSupport.parkNanos(every);
        }
    }

    private void onMessage(Object m) {
        switch (m) {
            case Messages.Heartbeat h -> {
                // the link noted the time: nothing else to do
            }
            case Messages.Spawn s -> spawn(s.rank(), s.incarnation());
            case Messages.Kill k -> {
                Process p = processes.get(key(k.rank(), k.incarnation()));
                if (p != null) {
                    p.destroyForcibly(); // SIGKILL: the process gets no chance to clean up, as in a crash
                }
            }
            case Messages.Partner p -> store.partner(p);
            case Messages.Discard d -> store.discard(d);
            case Messages.KeepFrom k -> store.keepFrom(k.line());
            case Messages.Shutdown s -> {
                link.close();
                done.countDown();
            }
            default -> System.err.println("rewind: agent " + node + ": unexpected message " + m);
        }
    }

    private static long key(int rank, int incarnation) {
        return ((long) rank << 32) | incarnation;
    }

    private void spawn(int rank, int incarnation) {
        ClassDataArchive.Writer writer;
        synchronized (this) {
            writer = archiveWriter == null ? archive.claimWriter() : null;
        }
        List<String> archiveOptions = writer != null ? writer.options() : archive.mapOptions();
        boolean mapsArchive = writer == null && !archiveOptions.isEmpty();
        List<String> cmd = new ArrayList<>(
                JvmCommand.of(javaCommand, classPath, RankProcess.class, archiveOptions, rankJvm.options()));
        cmd.addAll(rankArguments);
        cmd.addAll(List.of("--rank", Integer.toString(rank), "--incarnation", Integer.toString(incarnation)));
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().putAll(rankJvm.environment());
            p = pb.start();
            secret.handTo(p);
        } catch (IOException e) {
            if (writer != null) {
                writer.exited(127);
            }
            System.err.println("rewind: agent " + node + ": cannot start rank " + rank + ": " + e.getMessage());
            link.send(new Messages.Exited(rank, incarnation, 127));
            return;
        }
        if (writer != null) {
            synchronized (this) {
                archiveWriter = p;
            }
        }
        processes.put(key(rank, incarnation), p);
        link.send(new Messages.Spawned(rank, incarnation, p.pid()));
        Thread out = forward(p.getInputStream(), rank, incarnation, false);
        Thread err = forward(p.getErrorStream(), rank, incarnation, true);
        Thread.ofPlatform()
                .name("rewind-agent-watch-" + rank + "." + incarnation)
                .daemon(true)
                .start(() -> {
                    int status = waitFor(p);
                    if (writer != null) {
                        writer.exited(status);
                        synchronized (this) {
                            archiveWriter = null;
                        }
                    } else if (mapsArchive && status == ClassDataArchive.FATAL_ERROR_STATUS) {
                        archive.distrust();
                    }
                    joinQuietly(out);
                    joinQuietly(err);
                    processes.remove(key(rank, incarnation));
                    // After its last output line: the launcher sees the lines, then the exit.
                    link.send(new Messages.Exited(rank, incarnation, status));
                });
    }

    private static int waitFor(Process p) {
        while (true) {
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                // the watcher has nothing else to do
            }
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Forwards whole lines; a line the process had not finished when it died is dropped. */
    private Thread forward(InputStream in, int rank, int incarnation, boolean err) {
        return Thread.ofPlatform()
                .name("rewind-agent-" + (err ? "err-" : "out-") + rank + "." + incarnation)
                .daemon(true)
                .start(() -> {
                    ByteArrayOutputStream line = new ByteArrayOutputStream();
                    byte[] buf = new byte[8192];
                    try (in) {
                        int n;
                        while ((n = in.read(buf)) > 0) {
                            int start = 0;
                            for (int i = 0; i < n; i++) {
                                if (buf[i] == '\n') {
                                    line.write(buf, start, i - start);
                                    link.send(new Messages.Output(
                                            rank, incarnation, err, line.toString(StandardCharsets.UTF_8)));
                                    line.reset();
                                    start = i + 1;
                                }
                            }
                            line.write(buf, start, n - start);
                        }
                    } catch (IOException e) {
                        // the process is gone; its exit is reported by the watcher
                    }
                });
    }
}
