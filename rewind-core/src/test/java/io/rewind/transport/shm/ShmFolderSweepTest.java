package io.rewind.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.testprograms.ChildJvm;
import io.rewind.transport.JobSecret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job killed whole (every process of it SIGKILLed) leaves its shared-memory folder; the next job
 * on the host removes it, and never the folder of a job that still has a live process, nor one
 * being made.
 */
@Tag("process")
class ShmFolderSweepTest {

    private static byte[] newKey() {
        byte[] key = new byte[JobSecret.BYTES];
        new SecureRandom().nextBytes(key);
        return key;
    }

    /** Starts a real JVM that opens the folder of {@code key} under {@code root}; returns once it is open. */
    private static Process userOf(Path root, byte[] key) throws Exception {
        ChildJvm user = ChildJvm.start(
                ShmFolderUser.class, root.toString(), HexFormat.of().formatHex(key));
        assertEquals("open", user.firstLine(), "the folder user did not start");
        return user.process();
    }

    private static void ageFolder(Path folder) throws Exception {
        Files.setLastModifiedTime(
                folder,
                FileTime.fromMillis(
                        System.currentTimeMillis() - Duration.ofHours(1).toMillis()));
    }

    @Test
    void theFolderOfAJobKilledWholeIsRemovedByTheNextAndALiveOneIsKept(@TempDir Path root) throws Exception {
        byte[] dead = newKey();
        byte[] live = newKey();
        Process deadUser = userOf(root, dead);
        Process liveUser = userOf(root, live);
        try {
            Path deadFolder = ShmFolder.pathOf(root, JobSecret.of(dead));
            Path liveFolder = ShmFolder.pathOf(root, JobSecret.of(live));
            ageFolder(deadFolder);
            ageFolder(liveFolder);
            assertEquals(List.of(), ShmFolder.removeStale(root, Duration.ofMinutes(1)), "both are held");

            deadUser.destroyForcibly(); // SIGKILL: no chance to remove anything
            assertTrue(deadUser.waitFor(30, TimeUnit.SECONDS));
            assertTrue(Files.isDirectory(deadFolder), "a killed job leaves its folder");

            ShmFolder.open(root, JobSecret.of(newKey())); // the next job on the host
            assertFalse(Files.exists(deadFolder), "the dead job's folder is removed");
            assertTrue(Files.isDirectory(liveFolder), "the live job's folder stays");
        } finally {
            deadUser.destroyForcibly();
            liveUser.destroyForcibly();
            liveUser.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFolderThatChangedRecentlyOrIsNotAJobFolderIsKept(@TempDir Path root) throws Exception {
        byte[] key = newKey();
        Process user = userOf(root, key);
        user.destroyForcibly();
        assertTrue(user.waitFor(30, TimeUnit.SECONDS));
        Path folder = ShmFolder.pathOf(root, JobSecret.of(key));
        Path other = Files.createDirectory(root.resolve("someone-elses"));
        ageFolder(other);
        assertEquals(List.of(), ShmFolder.removeStale(root, Duration.ofMinutes(1)), "changed a moment ago");
        assertTrue(Files.isDirectory(folder));
        ageFolder(folder);
        assertEquals(List.of(folder), ShmFolder.removeStale(root, Duration.ofMinutes(1)));
        assertTrue(Files.isDirectory(other), "not a job folder");
    }
}
