package io.rewind.engine;

import java.io.Serializable;

/**
 * What the job decided for one call of a fault-tolerant collective ({@link Kind}) on one communicator:
 * the same value for every member that returns from it, whoever failed meanwhile.
 *
 * @param kind      the call
 * @param context   the communicator's context
 * @param call      the call's number among the fault-tolerant collectives on the communicator (from 0)
 * @param flag      an agreement's value: the bitwise AND of the flags of the members that took part
 * @param failed    members known to have failed when the decision was made, {world rank, incarnation}
 *                  pairs in the order the job heard of them; every member knows them when it returns
 * @param survivors a shrink's or a replacement's members, world ranks in their old order (an
 *                  intercommunicator's: the group of the lowest member first, then the other)
 * @param firstGroup how many of {@code survivors} are in the first group (an intercommunicator's)
 * @param contexts  the new communicator's context, and for an intercommunicator the contexts of the two
 *                  local groups' communicators (first group, then other)
 * @param replaced  a replacement's new incarnations, {world rank, incarnation} pairs
 */
public record FailureDecision(
        Kind kind,
        int context,
        int call,
        int flag,
        int[] failed,
        int[] survivors,
        int firstGroup,
        int[] contexts,
        int[] replaced)
        implements Serializable {
    /** The fault-tolerant collectives. */
    public enum Kind {
        AGREE,
        SHRINK,
        REPLACE
    }
}
