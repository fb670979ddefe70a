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

    /** The newest line every rank of the job holds a valid file for (0: none): where a global rollback goes. */
    default long newestLineAllHold() {
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < ranks(); r++) {
            all.add(r);
        }
        return newestCommonLine(all, Long.MAX_VALUE);
    }
}
