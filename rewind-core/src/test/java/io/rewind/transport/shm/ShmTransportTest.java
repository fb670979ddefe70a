package io.rewind.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.Frame;
import io.rewind.engine.IncarnationNotice;
import io.rewind.transport.JobSecret;
import io.rewind.transport.RecordingSink;
import io.rewind.transport.TransportConformanceSuite;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the shared-memory transport does beyond the conformance suite: files, fencing, refusals. */
class ShmTransportTest {
    private ShmRanks ranks;

    @AfterEach
    void close() {
        if (ranks != null) {
            ranks.close();
        }
    }

    @Test
    void theFolderIsTheUsersAloneAndItsFilesToo() throws IOException {
        ranks = ShmRanks.start(2, 2);
        Path folder = ranks.folder();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        try (var files = Files.list(folder)) {
            for (Path f : files.toList()) {
                assertEquals(
                        "rw-------",
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(f, LinkOption.NOFOLLOW_LINKS)),
                        f.toString());
            }
        }
        assertTrue(Files.exists(folder.resolve(Ring.fileName(0, 0, 1, 0))));
        assertTrue(Files.exists(folder.resolve(Ring.fileName(1, 0, 0, 0))));
        assertTrue(Files.exists(folder.resolve(Bell.fileName(1, 0))));
    }

    @Test
    void aFolderOfTheNameWithOtherPermissionsIsRefused(@TempDir Path root) throws IOException {
        byte[] key = new byte[JobSecret.BYTES];
        new SecureRandom().nextBytes(key);
        JobSecret secret = JobSecret.of(key);
        Files.createDirectory(
                ShmFolder.pathOf(root, secret),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(
                ShmFolder.pathOf(root, secret), PosixFilePermissions.fromString("rwxrwxrwx")); // past the umask
        IOException e = assertThrows(IOException.class, () -> ShmFolder.open(root, secret));
        assertTrue(e.getMessage().contains("rwxrwxrwx"), e.getMessage());
    }

    @Test
    void theProcessesOfOneFolderShareItsDomainAndOtherFoldersHaveTheirOwn(@TempDir Path root) throws IOException {
        byte[] key = new byte[JobSecret.BYTES];
        new SecureRandom().nextBytes(key);
        JobSecret secret = JobSecret.of(key);
        String a = ShmFolder.open(root, secret).domain();
        assertEquals(a, ShmFolder.open(root, secret).domain());
        Path elsewhere = Files.createDirectory(root.resolve("other-host"));
        assertNotEquals(a, ShmFolder.open(elsewhere, secret).domain());
    }

    @Test
    void aParkedRanksPollerSleepsOnAFutexHere() {
        String arch = System.getProperty("os.arch");
        if (System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && (arch.equals("amd64") || arch.equals("aarch64"))) {
            assertTrue(Futex.supported(), "no futex: parked ranks would be looked at every millisecond");
        }
    }

    /**
     * Incarnation 0 of rank 0 dies in the middle of a long message (its first record committed, the rest
     * never written) and with a record claimed but not committed. Incarnation 1 starts and removes the
     * dead one's files; rank 1 hears of it: the old ring, with its half message, is dropped (fenced);
     * incarnation 1 gets fresh rings and its messages arrive whole; nothing of incarnation 0's half
     * message is ever delivered.
     */
    @Test
    void aSenderKilledMidMessageIsFencedAndItsNextIncarnationGetsFreshRings() throws Exception {
        ranks = ShmRanks.start(2, 2);
        ShmTransport dead = ranks.transports[0];
        // What a killed process leaves: the rings as they are, no close (which would remove files).
        Ring ring = new Ring(ranks.map(Ring.fileName(0, 0, 1, 0)));
        int first = ring.claim(ShmTransport.FRAME, ring.maxRecord());
        writeHeader(ring.data(), first, 0, 0, 1, 0, 3L * ring.maxRecord());
        ring.commit();
        int half = ring.claim(ShmTransport.MORE, 100);
        ring.data().set(ValueLayout.JAVA_INT, half, 42); // claimed, never committed
        // Rank 1's poller reads the first record and waits for the rest, which never comes.
        ShmTransport next = ranks.open(0, 1, 2, ShmOptions.defaults().withLog(ranks.log::add));
        // The new incarnation removes the dead one's bell and the rings to and from it.
        assertFalse(Files.exists(ranks.folder().resolve(Bell.fileName(0, 0))), "the dead incarnation's bell");
        assertFalse(Files.exists(ranks.folder().resolve(Ring.fileName(1, 0, 0, 0))), "the ring to the dead one");
        assertTrue(Files.exists(ranks.folder().resolve(Bell.fileName(1, 0))), "a live incarnation's bell");
        RecordingSink sink = new RecordingSink();
        next.attach(0, sink);
        next.peer(1, 0);
        ranks.transports[1].peer(0, 1); // incarnation 1 is alive: incarnation 0's rings are dropped
        assertFalse(Files.exists(ranks.folder().resolve(Ring.fileName(0, 0, 1, 0))), "the dead ring's file");
        byte[] payload = TransportConformanceSuite.randomBytes(1000, 5);
        Frame f = new Frame(0, 0, 0, 1, 7, 1, 1, MemorySegment.ofArray(payload), 0, payload.length, null);
        next.send(1, f);
        RecordingSink.Arrival a = ranks.sinks[1].nextFrame();
        assertEquals(1, a.frame().incarnation());
        assertEquals(1, a.frame().sequence());
        assertEquals(0, ranks.sinks[1].framesWaiting(), "the half message of the dead incarnation");
        next.sendControl(1, new IncarnationNotice(0, 1));
        assertEquals(new IncarnationNotice(0, 1), ranks.sinks[1].nextControl());
        // And rank 1 reaches the new incarnation, not the dead one.
        ranks.transports[1].sendControl(0, new IncarnationNotice(1, 0));
        assertEquals(new IncarnationNotice(1, 0), sink.nextControl());
        next.close();
        dead.close();
        ranks.transports[0] = null;
    }

    @Test
    void aRingThatLiesAboutItsSenderIsReadNoMoreAndTheOthersGoOn() throws Exception {
        ranks = ShmRanks.start(3, 3);
        Ring forged = new Ring(ranks.map(Ring.fileName(0, 0, 1, 0)));
        int i = forged.claim(ShmTransport.FRAME, ShmTransport.FRAME_HEADER_BYTES);
        writeHeader(forged.data(), i, 2, 0, 1, 0, 0); // rank 2's frame in rank 0's ring
        forged.commit();
        String line = ranks.log.poll(10, TimeUnit.SECONDS);
        assertTrue(line != null && line.contains("refused the ring of rank 0"), String.valueOf(line));
        byte[] payload = TransportConformanceSuite.randomBytes(10, 1);
        Frame f = new Frame(0, 2, 2, 1, 7, 1, 0, MemorySegment.ofArray(payload), 0, payload.length, null);
        ranks.transports[2].send(1, f);
        RecordingSink.Arrival a = ranks.sinks[1].nextFrame();
        assertEquals(2, a.frame().sourceWorld());
        assertEquals(0, ranks.sinks[1].framesWaiting());
    }

    /**
     * The recovery line of a frame is read where the record format puts it, written here by hand rather
     * than by a sending transport.
     */
    @Test
    void aFrameIsReadWithTheRecoveryLineWhereTheFormatPutsIt() throws Exception {
        ranks = ShmRanks.start(2, 2);
        Ring ring = new Ring(ranks.map(Ring.fileName(0, 0, 1, 0)));
        int i = ring.claim(ShmTransport.FRAME, ShmTransport.FRAME_HEADER_BYTES);
        writeHeader(ring.data(), i, 0, 0, 1, 6, 0);
        ring.commit();
        Frame f = ranks.sinks[1].nextFrame().frame();
        assertEquals(6, f.line());
        assertEquals(0, f.sourceWorld());
        assertEquals(1L, f.sequence());
        assertEquals(0, f.lengthBytes());
    }

    @Test
    void aFrameWithANegativeRecoveryLineIsRefused() throws Exception {
        ranks = ShmRanks.start(2, 2);
        Ring forged = new Ring(ranks.map(Ring.fileName(0, 0, 1, 0)));
        int i = forged.claim(ShmTransport.FRAME, ShmTransport.FRAME_HEADER_BYTES);
        writeHeader(forged.data(), i, 0, 0, 1, -1, 0);
        forged.commit();
        String line = ranks.log.poll(10, TimeUnit.SECONDS);
        assertTrue(
                line != null && line.contains("refused the ring of rank 0") && line.contains("a negative field"),
                String.valueOf(line));
        assertEquals(0, ranks.sinks[1].framesWaiting());
    }

    private static void writeHeader(
            MemorySegment m, int i, int sourceWorld, int incarnation, int dest, int line, long total) {
        m.set(ValueLayout.JAVA_INT, i, 0);
        m.set(ValueLayout.JAVA_INT, i + 4, sourceWorld);
        m.set(ValueLayout.JAVA_INT, i + 8, sourceWorld);
        m.set(ValueLayout.JAVA_INT, i + 12, dest);
        m.set(ValueLayout.JAVA_INT, i + 16, 5);
        m.set(ValueLayout.JAVA_INT, i + 20, incarnation);
        m.set(ValueLayout.JAVA_INT, i + 24, 0);
        m.set(ValueLayout.JAVA_INT, i + 28, 0);
        m.set(ValueLayout.JAVA_INT, i + 32, line);
        m.set(ValueLayout.JAVA_INT, i + 36, 0);
        m.set(ValueLayout.JAVA_LONG, i + 40, 1L);
        m.set(ValueLayout.JAVA_LONG, i + 48, total);
    }
}
