package io.rewind.runtime.coordinator;

import io.rewind.engine.FailureDecision;
import io.rewind.runtime.rank.RankEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The fault-tolerant collectives of a job that reports failures to its program (agree, shrink,
 * replace), decided here, where the failure detector is: a call is decided once every member of its
 * communicator has either made it or is gone (failed, or its program ended), and every member that
 * made it gets the one decision. The coordinator outlives every rank (if it goes, the job goes), so a
 * decision once made is never lost nor made twice: the agreement is uniform whatever fails during it,
 * the decider included, which a ring or tree of ranks must work hard for. {@link
 * RecoveryCoordinator} feeds it the calls and the failures, and carries out what it returns.
 */
final class FailureCalls {
    /** Whether incarnation {@code incarnation} of world rank {@code rank} can no longer take part. */
    @FunctionalInterface
    interface Gone {
        boolean gone(int rank, int incarnation);
    }

    /** Contexts of the communicators decided here: far above those the ranks choose among themselves. */
    static final int FIRST_CONTEXT = 1 << 24;

    private final Gone gone;
    /** The failures so far, {world rank, incarnation} pairs in the order they were reported. */
    private final List<int[]> failures = new ArrayList<>();

    private final Map<Key, Pending> pending = new LinkedHashMap<>();
    private int nextContext = FIRST_CONTEXT;

    FailureCalls(Gone gone) {
        this.gone = gone;
    }

    /** One call: its communicator (by context and members, alike at every member) and number. */
    private record Key(FailureDecision.Kind kind, int context, int call, List<Integer> members) {}

    /** A call some members made. */
    static final class Pending {
        final FailureDecision.Kind kind;
        final int context;
        final int call;
        /** Every member, world rank to the incarnation the communicator reaches. */
        final Map<Integer, Integer> members = new LinkedHashMap<>();
        /** The first group of an intercommunicator (the one of its lowest world rank); null: intra. */
        List<Integer> firstGroup;

        final Map<Integer, Integer> flags = new LinkedHashMap<>();

        Pending(FailureDecision.Kind kind, int context, int call) {
            this.kind = kind;
            this.context = context;
            this.call = call;
        }

        /** The members that made the call (world ranks, those that are not gone). */
        List<Integer> callers() {
            return List.copyOf(flags.keySet());
        }
    }

    void failed(int rank, int incarnation) {
        failures.add(new int[] {rank, incarnation});
    }

    /** The failures so far as {world rank, incarnation} pairs. */
    int[] failurePairs() {
        int[] out = new int[2 * failures.size()];
        for (int i = 0; i < failures.size(); i++) {
            out[2 * i] = failures.get(i)[0];
            out[2 * i + 1] = failures.get(i)[1];
        }
        return out;
    }

    /** A member made a call. */
    void join(RankEvent.FailureCall e) {
        List<Integer> sorted = Arrays.stream(e.members()).sorted().boxed().toList();
        Key key = new Key(e.kind(), e.context(), e.call(), sorted);
        Pending p = pending.computeIfAbsent(key, k -> new Pending(e.kind(), e.context(), e.call()));
        if (p.members.isEmpty()) {
            // Members in the caller's order: for an intercommunicator its remote group, then its own.
            int lowest = sorted.getFirst();
            List<Integer> remote = new ArrayList<>();
            List<Integer> local = new ArrayList<>();
            for (int i = 0; i < e.members().length; i++) {
                (i < e.localFrom() ? remote : local).add(e.members()[i]);
            }
            List<Integer> first = e.localFrom() == e.members().length ? null : local.contains(lowest) ? local : remote;
            List<Integer> order = new ArrayList<>();
            if (first == null) {
                order.addAll(remote);
            } else {
                order.addAll(first);
                order.addAll(first == local ? remote : local);
            }
            for (int w : order) {
                int at = indexOf(e.members(), w);
                p.members.put(w, e.incarnations()[at]);
            }
            p.firstGroup = first;
        }
        p.flags.put(e.rank(), e.flag());
    }

    /** The calls every member has made or is gone from, taken out of the pending ones. */
    List<Pending> complete() {
        List<Pending> done = new ArrayList<>();
        pending.values().removeIf(p -> {
            for (Map.Entry<Integer, Integer> m : p.members.entrySet()) {
                if (!p.flags.containsKey(m.getKey()) && !gone.gone(m.getKey(), m.getValue())) {
                    return false;
                }
            }
            done.add(p);
            return true;
        });
        return done;
    }

    /** The decision of an agreement: the AND of the flags of those that made the call. */
    FailureDecision agreement(Pending p) {
        int flag = ~0;
        for (int f : p.flags.values()) {
            flag &= f;
        }
        return new FailureDecision(
                p.kind, p.context, p.call, flag, failedAmong(p), new int[0], 0, new int[0], new int[0]);
    }

    /** The decision of a shrink: the members that made it, in their old order, on new contexts. */
    FailureDecision shrink(Pending p) {
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        for (int w : p.members.keySet()) {
            if (p.flags.containsKey(w) && !gone.gone(w, p.members.get(w))) {
                (p.firstGroup == null || p.firstGroup.contains(w) ? first : second).add(w);
            }
        }
        int[] survivors = new int[first.size() + second.size()];
        int n = 0;
        for (int w : first) {
            survivors[n++] = w;
        }
        for (int w : second) {
            survivors[n++] = w;
        }
        int[] contexts = p.firstGroup == null ? new int[] {context()} : new int[] {context(), context(), context()};
        return new FailureDecision(
                p.kind, p.context, p.call, 0, failedAmong(p), survivors, first.size(), contexts, new int[0]);
    }

    /** The decision of a replacement: every member, those gone replaced by {@code replaced}. */
    FailureDecision replacement(Pending p, int[] replaced, int context) {
        int[] all = p.members.keySet().stream().mapToInt(Integer::intValue).toArray();
        return new FailureDecision(
                p.kind, p.context, p.call, 0, failedAmong(p), all, all.length, new int[] {context}, replaced);
    }

    /** The members of the call that are gone (world ranks, in their order). */
    List<Integer> goneMembers(Pending p) {
        List<Integer> out = new ArrayList<>();
        for (Map.Entry<Integer, Integer> m : p.members.entrySet()) {
            if (!p.flags.containsKey(m.getKey())) {
                out.add(m.getKey());
            }
        }
        return out;
    }

    /** A new context for a communicator decided here. */
    int context() {
        int c = nextContext;
        nextContext += 2;
        return c;
    }

    /** The failures of the call's members, as pairs: what every member knows when it returns. */
    private int[] failedAmong(Pending p) {
        List<Integer> out = new ArrayList<>();
        for (int[] f : failures) {
            if (Objects.equals(p.members.get(f[0]), f[1])) {
                out.add(f[0]);
                out.add(f[1]);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
