package io.rewind.tools.mcml;

/**
 * Which channel a rank stops logging first when its log exceeds the budget (the choice the MCML
 * paper leaves to a pluggable function in its Algorithm 1).
 */
public sealed interface SwitchOffStrategy {

    /** Short name used on the command line and in output. */
    String name();

    /** The paper's default: the channel that has carried the most bytes goes first. */
    record HeaviestLinkFirst() implements SwitchOffStrategy {
        @Override
        public String name() {
            return "heaviest";
        }
    }

    /**
     * The paper's hierarchical-clustering strategy: channels to ranks in the smallest common
     * cluster of a dendrogram go first (for rank 5 of 0..7: its pair [4-5], then [4-7], then
     * [0-7]), heaviest first within a level. A failure then drags in near neighbours rather
     * than ranks spread over the machine, which keeps rollback sets small on clustered codes.
     */
    record DendrogramNearestFirst(Dendrogram dendrogram) implements SwitchOffStrategy {
        @Override
        public String name() {
            return "dendrogram-" + dendrogram.kind();
        }
    }
}
