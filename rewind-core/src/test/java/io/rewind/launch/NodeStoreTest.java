package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.checkpoint.CheckpointFormat;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.transport.JobSecret;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's checkpoint service over real sockets: lines on disk, copies on the partner, discards and fencing. */
class NodeStoreTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final JobSecret SECRET = JobSecret.of(new byte[JobSecret.BYTES]);

    @TempDir
    Path dir;

    private NodeStore a;
    private NodeStore b;
    private NodeStorageClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    private static CheckpointImage image(int rank, long line, String text) {
        return new CheckpointImage(rank, line, Map.of("state", text.getBytes(StandardCharsets.UTF_8)));
    }

    private NodeStore store(String node, boolean shared) throws Exception {
        return new NodeStore(node, SECRET, dir.resolve(shared ? "shared" : node), shared, 2, LOOPBACK);
    }

    private static Messages.Partner partner(String node, NodeStore s) {
        return new Messages.Partner(
                node, s.address().getHostString(), s.address().getPort());
    }

    private static Messages.StoreLine line(int rank, int incarnation, long line, String text) {
        return new Messages.StoreLine(
                rank, incarnation, line, 0, CheckpointFormat.encode(image(rank, line, text)), false);
    }

    @Test
    void aLineIsKeptOnTheNodeAndOnItsPartnerBeforeItIsAcknowledged() throws Exception {
        a = store("node-a", false);
        b = store("node-b", false);
        a.partner(partner("node-b", b));
        client = NodeStorageClient.connect(a.address(), SECRET, 3, 0);

        client.write(image(3, 1, "one"));

        assertEquals(List.of("node-a", "node-b"), client.written(1).holders());
        for (Path folder : List.of(a.folder(), b.folder())) {
            CheckpointImage back = new CheckpointStore(folder, 2).load(3, 1);
            assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), back.section("state"));
        }
        assertEquals("one", new String(client.load(1).section("state"), StandardCharsets.UTF_8));
    }

    @Test
    void withoutAReachablePartnerTheLineIsKeptOnTheNodeAlone() throws Exception {
        a = store("node-a", false);
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            closedPort = s.getLocalPort();
        }
        a.partner(new Messages.Partner("node-b", LOOPBACK.getHostAddress(), closedPort));
        client = NodeStorageClient.connect(a.address(), SECRET, 0, 0);

        client.write(image(0, 1, "alone"));

        assertEquals(List.of("node-a"), client.written(1).holders());
    }

    @Test
    void aSharedFolderMakesNoCopies() throws Exception {
        a = store("node-a", true);
        b = store("node-b", true);
        a.partner(partner("node-b", b));

        Messages.Stored stored = a.store(line(1, 0, 1, "x"));

        assertEquals(List.of("node-a"), stored.holders());
        assertEquals(List.of(1L), new CheckpointStore(a.folder(), 2).lines(1));
    }

    @Test
    void aDiscardDeletesTheDeadIncarnationsNewerLinesAndRefusesItsLateCopies() throws Exception {
        a = store("node-a", false);
        a.store(line(2, 0, 1, "1"));
        a.store(line(2, 0, 2, "2"));
        // The next incarnation restarts from line 1; it has already written line 2 again here.
        a.discard(new Messages.Discard(2, 1, 1));
        CheckpointStore files = new CheckpointStore(a.folder(), 2);
        assertEquals(List.of(1L), files.lines(2));

        a.store(line(2, 1, 2, "2 again"));
        a.discard(new Messages.Discard(2, 1, 1)); // a second discard keeps the new incarnation's line
        assertEquals(List.of(1L, 2L), files.lines(2));

        IllegalStateException late = assertThrows(IllegalStateException.class, () -> a.store(line(2, 0, 3, "late")));
        assertTrue(late.getMessage().contains("rolled back"), late.getMessage());
        assertEquals(List.of(1L, 2L), files.lines(2));
    }

    @Test
    void aCorruptLineIsRefusedAndNothingIsWritten() throws Exception {
        a = store("node-a", false);
        byte[] bytes = CheckpointFormat.encode(image(0, 1, "state"));
        bytes[bytes.length - 1] ^= 0x5a;

        assertThrows(RuntimeException.class, () -> a.store(new Messages.StoreLine(0, 0, 1, 0, bytes, false)));

        assertEquals(List.of(), new CheckpointStore(a.folder(), 2).lines(0));
    }

    @Test
    void aLineForAnotherRankIsRefused() throws Exception {
        a = store("node-a", false);
        byte[] bytes = CheckpointFormat.encode(image(1, 1, "state"));

        assertThrows(IllegalArgumentException.class, () -> a.store(new Messages.StoreLine(0, 0, 1, 0, bytes, false)));
    }

    @Test
    void aServiceRefusesAPeerWithoutTheSecret() throws Exception {
        a = store("node-a", false);
        byte[] key = new byte[JobSecret.BYTES];
        key[0] = 1;
        assertThrows(java.io.IOException.class, () -> NodeStorageClient.connect(a.address(), JobSecret.of(key), 0, 0));
        assertEquals(List.of(), new CheckpointStore(a.folder(), 2).lines(0));
    }

    @Test
    void closingTheNodesOwnFolderRemovesItButNotASharedOne() throws Exception {
        a = store("node-a", false);
        b = store("node-b", true);
        a.store(line(0, 0, 1, "x"));
        b.store(line(0, 0, 1, "x"));
        Path own = a.folder();
        Path shared = b.folder();

        a.close();
        b.close();
        a = null;
        b = null;

        assertTrue(Files.notExists(own));
        assertTrue(Files.isDirectory(shared.resolve("rank-00000")));
    }
}
