package io.rewind.launch;

import io.rewind.checkpoint.CheckpointFormat;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A node's checkpoint service, run by its agent: the rank processes of the node hand it their
 * checkpoints, it keeps them in the node's folder and copies each one to the agent of a partner node
 * (chosen by the launcher, off this node), so that the loss of the whole node loses no line. A line is
 * acknowledged only once it is on disk here and, where there is a partner, there too.
 *
 * <p>With a folder all nodes share, the service keeps the lines in it and makes no copies. Lines of
 * a rank's incarnation that a rollback discarded are deleted and refused from then on ({@link
 * #discard}): a late copy from a dead incarnation must not come back as a line to restart from.
 *
 * <p>Requests arrive on the readers of the connections of the node's ranks and of other agents; each
 * rank's files and bookkeeping are guarded by a lock of that rank's, and the copy to the partner is
 * made while the node writes its own.
 */
final class NodeStore implements AutoCloseable {
    /** How long a copy to the partner may take before the line is kept on this node alone. */
    private static final long COPY_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(120);

    private final String node;
    private final JobSecret secret;
    private final Path folder;
    private final boolean shared;
    private final CheckpointStore files;
    private final LinkServer server;
    /** Copies to the partner, one virtual thread each (they wait on the network, not a core). */
    private static final Executor COPIERS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("rewind-store-copy-", 0).factory());

    /** What this node keeps of each rank; a rank's writes and discards are ordered by its lock. */
    private final ConcurrentHashMap<Integer, RankFiles> ranks = new ConcurrentHashMap<>();

    /** One rank's files here: the oldest incarnation still taken, and which one wrote each line. */
    private static final class RankFiles {
        int oldestTaken;
        final TreeMap<Long, Integer> writers = new TreeMap<>();
    }

    private final Object partnerLock = new Object();
    private Messages.Partner partner;
    private Link partnerLink;
    private Requests partnerRequests;

    /**
     * @param folder where the lines go: this node's own (created, removed on {@link #close}) when
     *     {@code shared} is false, else the folder every node shares (kept)
     */
    NodeStore(String node, JobSecret secret, Path folder, boolean shared, int keepLines, InetAddress bind)
            throws IOException {
        this.node = node;
        this.secret = secret;
        this.folder = Files.createDirectories(folder);
        this.shared = shared;
        this.files = new CheckpointStore(this.folder, keepLines);
        this.server = LinkServer.start(
                "store-" + node, bind, secret, Link.STORAGE_MESSAGE_BYTES, LinkServer.readingWith(this::serve));
    }

    InetSocketAddress address() {
        return server.address();
    }

    Path folder() {
        return folder;
    }

    /** In a connection's reader: one request of a rank of this node or of another node's service. */
    private void serve(Link link, Object m) {
        if (!(m instanceof Messages.Request r)) {
            System.err.println("rewind: checkpoint service of " + node + ": unexpected message " + m);
            return;
        }
        Serializable value = null;
        String error = null;
        try {
            value = switch (r.body()) {
                case Messages.StoreLine s -> store(s);
                case Messages.LoadLine l -> load(l.rank(), l.line());
                default -> throw new IllegalArgumentException("unknown request " + r.body());
            };
        } catch (RuntimeException e) {
            error = e.getMessage() != null ? e.getMessage() : e.toString();
        }
        link.send(new Messages.Answer(r.id(), value, error));
    }

    /** Keeps one line: verified, on disk, and (unless it is a copy itself) copied to the partner. */
    Messages.Stored store(Messages.StoreLine s) {
        CheckpointImage image = CheckpointFormat.decode(s.bytes(), "rank " + s.rank() + " line " + s.line());
        if (image.rank() != s.rank() || image.line() != s.line()) {
            throw new IllegalArgumentException("the file of rank " + s.rank() + " line " + s.line() + " holds rank "
                    + image.rank() + " line " + image.line());
        }
        // The copy travels to the partner while this node writes its own: both take a disk flush.
        CompletableFuture<String> copy = !s.copy() && !shared
                ? CompletableFuture.supplyAsync(() -> copyToPartner(s), COPIERS)
                : CompletableFuture.completedFuture(null);
        RankFiles rank = rankFiles(s.rank());
        synchronized (rank) {
            if (s.incarnation() < rank.oldestTaken) {
                throw new IllegalStateException("line " + s.line() + " of rank " + s.rank() + "." + s.incarnation()
                        + " refused: that incarnation's execution was rolled back");
            }
            if (s.part() > 0) {
                files.writeInTransitEncoded(s.rank(), s.line(), s.part(), s.bytes());
            } else {
                long oldest = files.writeEncoded(s.rank(), s.line(), s.bytes());
                rank.writers.put(s.line(), s.incarnation());
                rank.writers.headMap(oldest).clear();
            }
        }
        List<String> holders = new ArrayList<>(List.of(node));
        String copiedTo = copy.join();
        if (copiedTo != null) {
            holders.add(copiedTo);
        }
        return new Messages.Stored(List.copyOf(holders));
    }

    /** The partner that took the copy, or null (none, or it failed: the line is kept here alone). */
    private String copyToPartner(Messages.StoreLine s) {
        Requests requests;
        String name;
        synchronized (partnerLock) {
            if (partner == null || partner.node() == null) {
                return null;
            }
            name = partner.node();
            try {
                if (partnerLink == null) {
                    partnerLink = Link.connect(
                            new InetSocketAddress(partner.host(), partner.port()),
                            secret,
                            "store-" + node + "-to-" + name,
                            Link.STORAGE_MESSAGE_BYTES);
                    Requests opened = new Requests(partnerLink);
                    Link opening = partnerLink;
                    partnerLink.startReader(
                            m -> {
                                if (m instanceof Messages.Answer a) {
                                    opened.answered(a);
                                }
                            },
                            why -> {
                                opened.closed(why);
                                forgetPartnerLink(opening);
                            });
                    partnerRequests = opened;
                }
                requests = partnerRequests;
            } catch (IOException e) {
                System.err.println("rewind: checkpoint service of " + node + ": cannot reach partner " + name + ": "
                        + e.getMessage() + "; line " + s.line() + " of rank " + s.rank() + " kept on " + node
                        + " alone");
                return null;
            }
        }
        try {
            requests.call(
                    new Messages.StoreLine(s.rank(), s.incarnation(), s.line(), s.part(), s.bytes(), true),
                    COPY_TIMEOUT_MILLIS);
            return name;
        } catch (IllegalStateException e) {
            System.err.println("rewind: checkpoint service of " + node + ": copy of line " + s.line() + " of rank "
                    + s.rank() + " to " + name + " failed: " + e.getMessage() + "; kept on " + node + " alone");
            return null;
        }
    }

    private void forgetPartnerLink(Link closed) {
        synchronized (partnerLock) {
            if (partnerLink == closed) {
                partnerLink = null;
                partnerRequests = null;
            }
        }
    }

    /** From the launcher: the node that takes this node's copies from now on. */
    void partner(Messages.Partner p) {
        Link old;
        synchronized (partnerLock) {
            if (p.equals(partner)) {
                return;
            }
            partner = p;
            old = partnerLink;
            partnerLink = null;
            partnerRequests = null;
        }
        if (old != null) {
            old.close();
        }
    }

    private RankFiles rankFiles(int rank) {
        return ranks.computeIfAbsent(rank, r -> new RankFiles());
    }

    /** The encoded file of one line, verified, with the line's channel state as one more section. */
    byte[] load(int rank, long line) {
        return CheckpointFormat.encode(files.loadWithChannelState(
                rank, line, why -> System.err.println("rewind: checkpoint service of " + node + ": " + why)));
    }

    /** From the launcher: see {@link Messages.KeepFrom}. */
    void keepFrom(long line) {
        files.keepFrom(line);
    }

    /** From the launcher, before the rank's next incarnation starts: see {@link Messages.Discard}. */
    void discard(Messages.Discard d) {
        RankFiles rank = rankFiles(d.rank());
        synchronized (rank) {
            rank.oldestTaken = Math.max(rank.oldestTaken, d.incarnation());
            for (long line : files.lines(d.rank())) {
                Integer by = rank.writers.get(line);
                // A file this service did not write (shared folder, written by another node) counts as old.
                if (line > d.line() && (by == null || by < d.incarnation())) {
                    files.discard(d.rank(), line);
                    rank.writers.remove(line);
                }
            }
        }
    }

    @Override
    public void close() {
        server.close();
        files.closeFiles();
        synchronized (partnerLock) {
            if (partnerLink != null) {
                partnerLink.close();
            }
        }
        if (!shared) {
            try (Stream<Path> all = Files.walk(folder)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                System.err.println("rewind: could not remove " + folder + ": " + e.getMessage());
            }
        }
    }
}
