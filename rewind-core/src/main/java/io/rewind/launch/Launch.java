package io.rewind.launch;

import io.rewind.runtime.FailureSchedule;
import java.time.Duration;
import java.util.List;

/**
 * How the ranks of a job become processes: which nodes run an agent and how many ranks each takes.
 *
 * @param mode      how agents are placed and started ({@link LocalLaunch}, {@link SshLaunch}, {@link
 *                  SlurmLaunch}, or another {@link LaunchMode})
 * @param nodes     the nodes, in placement order (ranks fill each node's slots in turn)
 * @param nodeLoss  nodes to lose during the run, for testing what fails over: when one of these
 *                  kills strikes its rank, the rank's whole node is lost (its agent and every rank
 *                  process on it killed with SIGKILL at once)
 * @param nodeFreeze nodes to silence during the run, for testing what fails over: when one of these
 *                  kills strikes its rank, the rank's node stops answering (its agent and every rank
 *                  process on it stopped with SIGSTOP), which only heartbeats can tell
 * @param heartbeatTimeout how long a node agent (or the launcher, as an agent sees it) may stay silent
 *                  before it is taken for lost; heartbeats go both ways five times in that time
 * @param suspicionThreshold the phi (suspicion level of a silence, judged against the rhythm of the
 *                  heartbeats so far) at which a silent peer is probed, and taken for lost before the
 *                  timeout if the probe goes unanswered; 0: the timeout alone
 *                  ({@link io.rewind.launch.liveness.PeerWatch})
 * @param nodeCheckpointRoot where on each node its own checkpoint folder is made (a path valid on every
 *                  host, such as a local disk's; null: the host's temporary folder); unused with a
 *                  shared checkpoint folder
 * @param sharedMemory whether rank processes on one host talk through shared memory (rings in memory
 *                  files) rather than TCP; ranks on other hosts talk over TCP either way
 * @param rankJvm   JVM options and environment variables added to every rank process
 */
public record Launch(
        LaunchMode mode,
        List<Node> nodes,
        FailureSchedule nodeLoss,
        FailureSchedule nodeFreeze,
        Duration heartbeatTimeout,
        double suspicionThreshold,
        String nodeCheckpointRoot,
        boolean sharedMemory,
        RankJvm rankJvm) {
    /** The default {@link #heartbeatTimeout}. */
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);

    /** The default {@link #suspicionThreshold}: Akka's and Cassandra's. */
    public static final double DEFAULT_SUSPICION_THRESHOLD = 8;

    private static final Duration SHORTEST_HEARTBEAT_TIMEOUT = Duration.ofMillis(100);

    /** A node: a name, and how many ranks it takes (0: an even share). */
    public record Node(String name, int slots) {}

    public Launch {
        java.util.Objects.requireNonNull(mode, "a launch needs a mode");
        java.util.Objects.requireNonNull(rankJvm, "a launch needs its rank JVM settings (RankJvm.NONE for none)");
        nodes = List.copyOf(nodes);
        if ((!nodeLoss.isEmpty() || !nodeFreeze.isEmpty()) && nodes.size() < 2) {
            throw new IllegalArgumentException(
                    "losing the only node leaves nowhere to restart the ranks: use --nodes 2 or more");
        }
        if (heartbeatTimeout.compareTo(SHORTEST_HEARTBEAT_TIMEOUT) < 0) {
            throw new IllegalArgumentException("the heartbeat timeout must be at least "
                    + SHORTEST_HEARTBEAT_TIMEOUT.toMillis() + " ms, was " + heartbeatTimeout.toMillis() + " ms");
        }
        if (!(suspicionThreshold >= 0) || Double.isInfinite(suspicionThreshold)) {
            throw new IllegalArgumentException(
                    "the suspicion threshold must be a phi of 0 (off) or more, was " + suspicionThreshold);
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a launch needs at least one node");
        }
    }

    /** {@code count} agents on this machine, sharing the ranks evenly. */
    public static Launch local(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, was " + count);
        }
        List<Node> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodes.add(new Node("node-" + i, 0));
        }
        return of(new LocalLaunch(), nodes);
    }

    /**
     * One agent per host of an Open MPI hostfile ({@code host [slots=N]} per line, {@code #} comments; a
     * host named twice adds its slots), started with {@code remoteShell host COMMAND}. Java and
     * Rewind must be at the same paths on every host, and the checkpoint folder shared.
     */
    public static Launch ssh(java.nio.file.Path hostfile, List<String> remoteShell) {
        List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(hostfile);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read the hostfile " + hostfile + ": " + e.getMessage());
        }
        java.util.LinkedHashMap<String, Integer> slots = new java.util.LinkedHashMap<>();
        int number = 0;
        for (String raw : lines) {
            number++;
            String line = raw.replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            int n = 1;
            for (int i = 1; i < words.length; i++) {
                String w = words[i];
                if (w.startsWith("slots=")) {
                    try {
                        n = Integer.parseInt(w.substring(6));
                    } catch (NumberFormatException e) {
                        n = -1;
                    }
                    if (n < 1) {
                        throw new IllegalArgumentException(
                                hostfile + " line " + number + ": slots must be a positive " + "number: " + raw);
                    }
                } else if (!w.startsWith("max_slots=") && !w.startsWith("max-slots=")) {
                    throw new IllegalArgumentException(hostfile + " line " + number + ": unknown word '" + w + "'");
                }
            }
            slots.merge(words[0], n, Integer::sum);
        }
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("the hostfile " + hostfile + " names no host");
        }
        SshLaunch mode = new SshLaunch(remoteShell);
        List<Node> nodes = new java.util.ArrayList<>();
        slots.forEach((host, n) -> nodes.add(new Node(host, n)));
        return of(mode, nodes);
    }

    /**
     * One agent per node of the Slurm allocation this process runs in ({@code SLURM_JOB_NODELIST},
     * expanded by {@code scontrol show hostnames}), each taking an even share of the ranks.
     */
    public static Launch slurm() {
        String list = System.getenv("SLURM_JOB_NODELIST");
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException(
                    "--launch slurm runs inside a Slurm allocation (salloc or sbatch): SLURM_JOB_NODELIST is not set");
        }
        List<String> hosts;
        try {
            Process p = new ProcessBuilder("scontrol", "show", "hostnames", list)
                    .redirectErrorStream(true)
                    .start();
            hosts = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .lines()
                    .map(String::trim)
                    .filter(h -> !h.isEmpty())
                    .toList();
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0 || hosts.isEmpty()) {
                throw new IllegalArgumentException("scontrol show hostnames " + list + " failed: " + hosts);
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot run scontrol to expand " + list + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("interrupted while expanding " + list);
        }
        List<Node> nodes = new java.util.ArrayList<>();
        for (String h : hosts) {
            nodes.add(new Node(h, 0));
        }
        return of(new SlurmLaunch(), nodes);
    }

    /**
     * A launch of {@code nodes} by {@code mode}, with nothing to lose or freeze, the default heartbeat
     * and node folders.
     */
    public static Launch of(LaunchMode mode, List<Node> nodes) {
        return new Launch(
                mode,
                nodes,
                FailureSchedule.NONE,
                FailureSchedule.NONE,
                DEFAULT_HEARTBEAT_TIMEOUT,
                DEFAULT_SUSPICION_THRESHOLD,
                null,
                false,
                RankJvm.NONE);
    }

    /** This launch, losing a rank's whole node when one of {@code losses} strikes that rank. */
    public Launch losingNodes(FailureSchedule losses) {
        return new Launch(
                mode,
                nodes,
                losses,
                nodeFreeze,
                heartbeatTimeout,
                suspicionThreshold,
                nodeCheckpointRoot,
                sharedMemory,
                rankJvm);
    }

    /** This launch, silencing a rank's whole node when one of {@code freezes} strikes that rank. */
    public Launch freezingNodes(FailureSchedule freezes) {
        return new Launch(
                mode,
                nodes,
                nodeLoss,
                freezes,
                heartbeatTimeout,
                suspicionThreshold,
                nodeCheckpointRoot,
                sharedMemory,
                rankJvm);
    }

    /** This launch with another heartbeat timeout. */
    public Launch withHeartbeatTimeout(Duration timeout) {
        return new Launch(
                mode,
                nodes,
                nodeLoss,
                nodeFreeze,
                timeout,
                suspicionThreshold,
                nodeCheckpointRoot,
                sharedMemory,
                rankJvm);
    }

    /** This launch suspecting a silent peer at {@code phi} (0: never, the timeout alone decides). */
    public Launch withSuspicionThreshold(double phi) {
        return new Launch(
                mode, nodes, nodeLoss, nodeFreeze, heartbeatTimeout, phi, nodeCheckpointRoot, sharedMemory, rankJvm);
    }

    /** How a peer over a control link is judged: both ends derive the same settings from these two. */
    io.rewind.launch.liveness.PeerWatch.Settings watchSettings() {
        return io.rewind.launch.liveness.PeerWatch.Settings.of(heartbeatTimeout, suspicionThreshold);
    }

    /** This launch with each node's checkpoint folder made under {@code root} on its host. */
    public Launch withNodeCheckpointRoot(String root) {
        return new Launch(
                mode, nodes, nodeLoss, nodeFreeze, heartbeatTimeout, suspicionThreshold, root, sharedMemory, rankJvm);
    }

    /** This launch with rank processes of one host talking through shared memory ({@code on}) or TCP. */
    public Launch withSharedMemory(boolean on) {
        return new Launch(
                mode,
                nodes,
                nodeLoss,
                nodeFreeze,
                heartbeatTimeout,
                suspicionThreshold,
                nodeCheckpointRoot,
                on,
                rankJvm);
    }

    /** This launch with JVM options and environment variables added to every rank process. */
    public Launch withRankJvm(RankJvm settings) {
        return new Launch(
                mode,
                nodes,
                nodeLoss,
                nodeFreeze,
                heartbeatTimeout,
                suspicionThreshold,
                nodeCheckpointRoot,
                sharedMemory,
                settings);
    }

    /** The node of each rank: filled in order, each node its slots (or an even share when 0). */
    int[] place(int ranks) {
        int[] nodeOf = new int[ranks];
        int k = nodes.size();
        int r = 0;
        for (int i = 0; i < k && r < ranks; i++) {
            int slots = nodes.get(i).slots() > 0 ? nodes.get(i).slots() : (ranks + k - 1 - i) / k;
            for (int s = 0; s < slots && r < ranks; s++) {
                nodeOf[r++] = i;
            }
        }
        if (r < ranks) {
            throw new IllegalArgumentException(
                    ranks + " ranks do not fit the " + (r) + " slots of the nodes " + nodes + ": add slots or nodes");
        }
        return nodeOf;
    }
}
