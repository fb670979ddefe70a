package io.rewind.launch;

import io.rewind.runtime.FailureSchedule;
import java.util.List;

/**
 * How the ranks of a job become processes: which nodes run an agent and how many ranks each takes.
 *
 * @param mode      how agents are started
 * @param nodes     the nodes, in placement order (ranks fill each node's slots in turn)
 * @param nodeLoss  nodes to lose during the run, for testing what fails over: when one of these
 *                  kills strikes its rank, the rank's whole node is lost (its agent and every rank
 *                  process on it killed with SIGKILL at once)
 */
public record Launch(Mode mode, List<Node> nodes, FailureSchedule nodeLoss) {
    /** How node agents are started. */
    public enum Mode {
        /** Agents are processes on this machine (one per pseudo-node). */
        LOCAL
    }

    /** A node: a name, and how many ranks it takes (0: an even share). */
    public record Node(String name, int slots) {}

    public Launch {
        nodes = List.copyOf(nodes);
        if (!nodeLoss.isEmpty() && nodes.size() < 2) {
            throw new IllegalArgumentException(
                    "losing the only node leaves nowhere to restart the ranks: use --nodes 2 or more");
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
        return new Launch(Mode.LOCAL, nodes, FailureSchedule.NONE);
    }

    /** This launch, losing a rank's whole node when one of {@code losses} strikes that rank. */
    public Launch losingNodes(FailureSchedule losses) {
        return new Launch(mode, nodes, losses);
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
