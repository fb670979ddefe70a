package io.rewind.ft;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What a protocol may look at to plan a recovery: the recovery lines the ranks hold. */
public interface RecoveryView {
    int ranks();

    /**
     * The newest line rank {@code rank}'s current incarnation has written or restarted from (0: none):
     * from there on it depends on what its peers send it.
     */
    long newestLine(int rank);

    /**
     * The newest line, at most {@code atMost}, that every one of {@code ranks} holds a valid file for
     * (0: none, start over); lines that cannot be read back are skipped.
     */
    long newestCommonLine(Collection<Integer> ranks, long atMost);

    /**
     * Whether {@code group} can restart together from {@code line} without losing a message: every
     * message in transit across the line to a member, from a fellow member or from a survivor whose log
     * no longer holds it, is kept durably ({@link RecoveryLines#complete}).
     */
    boolean complete(Collection<Integer> group, long line);

    /**
     * The newest line, at most {@code atMost}, that every one of {@code group} holds a valid file for and
     * that is complete for their restart together ({@link #complete}); -1 if not even the beginning is
     * (a survivor's log no longer reaches back to what a member needs: more ranks must restart).
     */
    default long newestCompleteLine(Collection<Integer> group, long atMost) {
        long line = newestCommonLine(group, atMost);
        while (line > 0 && !complete(group, line)) {
            line = newestCommonLine(group, line - 1);
        }
        return line > 0 || complete(group, 0) ? line : -1;
    }

    /**
     * The oldest of the newest lines of the ranks outside {@code group} ({@link Long#MAX_VALUE} if none):
     * ranks restarting together go back no later, since a rank outside that crashes later restarts from
     * its own newest line and may need what the group sent after it, which only a re-execution that
     * starts early enough sends again (the group's logs die with it).
     */
    default long newestLineOutside(Collection<Integer> group) {
        long atMost = Long.MAX_VALUE;
        for (int r = 0; r < ranks(); r++) {
            if (!group.contains(r)) {
                atMost = Math.min(atMost, newestLine(r));
            }
        }
        return atMost;
    }

    /**
     * The newest line every rank of the job holds a valid file for and that is complete for all of them
     * (0: none, start over, which is always complete when every rank restarts): where a global rollback
     * goes.
     */
    default long newestLineAllHold() {
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < ranks(); r++) {
            all.add(r);
        }
        return Math.max(0, newestCompleteLine(all, Long.MAX_VALUE));
    }
}
