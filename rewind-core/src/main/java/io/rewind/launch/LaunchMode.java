package io.rewind.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How a job's processes are placed on hosts and started: its node agents (which start the rank
 * processes), and its logger processes. The launcher asks nothing else of a way of launching; the
 * three Rewind ships are {@link LocalLaunch} (processes of this machine), {@link SshLaunch} (one agent
 * per host of a hostfile) and {@link SlurmLaunch} (one agent per node of a Slurm allocation).
 *
 * <p>Adding a way: one class implementing this, handed to {@link Launch#of}. A node lost under any
 * mode looks the same to the launcher: its agent's control link closes, or its heartbeats stop.
 */
public interface LaunchMode {
    /** The mode's name, as {@code --launch} spells it. */
    String name();

    /**
     * Whether every process of the job runs on this machine. The launcher then listens on the loopback
     * interface only, tells processes to reach each other by the addresses they report, kills a lost
     * node's processes itself, and removes its folders; otherwise it listens on every interface,
     * advertises this host's name, and leaves a lost node's host to its agent.
     */
    boolean onThisHost();

    /**
     * The interface the launcher listens on for the job's processes: the loopback interface when every
     * process runs on this machine, every interface (null) otherwise.
     */
    default InetAddress listenAddress() {
        return onThisHost() ? InetAddress.getLoopbackAddress() : null;
    }

    /** The name the job's processes reach the launcher by: its loopback address on this machine, else its host name. */
    default String launcherHost() {
        if (onThisHost()) {
            return InetAddress.getLoopbackAddress().getHostAddress();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            throw new IllegalStateException("cannot tell this host's name to the node agents: " + e.getMessage(), e);
        }
    }

    /**
     * How the job's processes reach a process the launcher started itself (the event logger, a logger
     * process), which said it listens at {@code reportedHost}: by that address on this machine, by the
     * launcher's host name otherwise.
     */
    default String reachedAs(String reportedHost) {
        return onThisHost() ? reportedHost : launcherHost();
    }

    /**
     * Whether the job's processes are processes of this machine to the launcher: it ends a lost node's
     * itself, removes their folders and memory files, and knows them by their ids. Otherwise the agent
     * on a node's host does that.
     */
    default boolean ownsNodeProcesses() {
        return onThisHost();
    }

    /**
     * Starts the agents of {@code nodes}, in order: {@code agentCommand} gives the command of the agent
     * of the node it is given the name of. Returns the process that stands for each node's agent (one
     * process may stand for several, as one {@code srun} starts them all). Every process is started with
     * {@code starter}, which hands it the job's secret. By default, one process a node, each the agent's
     * command run on its node ({@link #onNode}).
     */
    default List<Process> startAgents(
            List<Launch.Node> nodes, Function<String, List<String>> agentCommand, ProcessStarter starter)
            throws IOException {
        List<Process> agents = new ArrayList<>();
        for (Launch.Node n : nodes) {
            agents.add(starter.start(onNode(n.name(), agentCommand.apply(n.name()), "rewind-agent")));
        }
        return agents;
    }

    /** The command that runs {@code command} as a process of its own on node {@code host}, named {@code name}. */
    List<String> onNode(String host, List<String> command, String name);

    /** Starts a process of the job from its command. */
    @FunctionalInterface
    interface ProcessStarter {
        Process start(List<String> command) throws IOException;
    }
}
