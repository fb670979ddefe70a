package io.rewind.ft;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A protocol's answer to a failure: which ranks restart and from which recovery line.
 *
 * @param rollback         the ranks that restart (the failed ones and any the protocol adds)
 * @param line             the recovery line they restart from (0: from the beginning)
 * @param discardNewerLines whether lines after {@code line} are forgotten: they describe an execution
 *                         being redone, which no later recovery may restart from
 * @param notes            what the runtime should tell the user about the choice (may be empty)
 */
public record RecoveryPlan(Set<Integer> rollback, long line, boolean discardNewerLines, List<String> notes) {
    public RecoveryPlan {
        if (rollback.isEmpty()) {
            throw new IllegalArgumentException("a recovery plan restarts at least one rank");
        }
        if (line < 0) {
            throw new IllegalArgumentException("recovery line " + line);
        }
        rollback = Collections.unmodifiableSortedSet(new TreeSet<>(rollback)); // iterated in rank order
        notes = List.copyOf(notes);
    }

    /** Every rank of a world of {@code ranks} restarts from {@code line}. */
    public static RecoveryPlan everyRank(int ranks, long line, List<String> notes) {
        Set<Integer> all = new TreeSet<>();
        for (int r = 0; r < ranks; r++) {
            all.add(r);
        }
        return new RecoveryPlan(all, line, true, notes);
    }
}
