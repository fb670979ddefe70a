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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * <p>Requests arrive on the readers of the connections of the node's ranks and of other agents; the
 * folder and its bookkeeping are guarded by this object's lock, copies to the partner are made
 * outside it.
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
    /** Per rank: the oldest incarnation whose lines are still taken. */
    private final Map<Integer, Integer> oldestTaken = new HashMap<>();
    /** Per rank: which incarnation wrote each line this node keeps. */
    private final Map<Integer, TreeMap<Long, Integer>> writers = new HashMap<>();

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
        synchronized (this) {
            int oldest = oldestTaken.getOrDefault(s.rank(), 0);
            if (s.incarnation() < oldest) {
                throw new IllegalStateException("line " + s.line() + " of rank " + s.rank() + "." + s.incarnation()
                        + " refused: that incarnation's execution was rolled back");
            }
            files.writeEncoded(s.rank(), s.line(), s.bytes());
            TreeMap<Long, Integer> written = writers.computeIfAbsent(s.rank(), r -> new TreeMap<>());
            written.put(s.line(), s.incarnation());
            written.headMap(files.lines(s.rank()).getFirst()).clear();
        }
        List<String> holders = new ArrayList<>(List.of(node));
        if (!s.copy() && !shared) {
            String copiedTo = copyToPartner(s);
            if (copiedTo != null) {
                holders.add(copiedTo);
            }
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
                    new Messages.StoreLine(s.rank(), s.incarnation(), s.line(), s.bytes(), true), COPY_TIMEOUT_MILLIS);
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

    /** The encoded file of one line, verified. */
    synchronized byte[] load(int rank, long line) {
        byte[] bytes = files.read(rank, line);
        CheckpointFormat.decode(bytes, folder + ": rank " + rank + " line " + line);
        return bytes;
    }

    /** From the launcher, before the rank's next incarnation starts: see {@link Messages.Discard}. */
    synchronized void discard(Messages.Discard d) {
        oldestTaken.merge(d.rank(), d.incarnation(), Math::max);
        TreeMap<Long, Integer> written = writers.getOrDefault(d.rank(), new TreeMap<>());
        for (long line : files.lines(d.rank())) {
            Integer by = written.get(line);
            // A file this service did not write (shared folder, written by another node) counts as old.
            if (line > d.line() && (by == null || by < d.incarnation())) {
                files.discard(d.rank(), line);
                written.remove(line);
            }
        }
    }

    @Override
    public void close() {
        server.close();
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
