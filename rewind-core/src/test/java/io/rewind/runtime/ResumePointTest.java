package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumePointTest {
    @TempDir
    Path dir;

    private JobConfig job(int ranks, boolean resume, String... args) {
        return JobConfig.builder("com.example.Main")
                .ranks(ranks)
                .args(List.of(args))
                .quiet()
                .checkpointDir(dir)
                .resume(resume)
                .build();
    }

    private void write(CheckpointStore store, int rank, long line) {
        store.write(new CheckpointImage(rank, line, Map.of("s", new byte[] {(byte) line})));
    }

    @Test
    void aFreshRunRemovesWhatAnEarlierRunLeftAndAResumedOneStartsFromTheNewestLineAllHold() {
        CheckpointStore store = new CheckpointStore(dir, 3);
        write(store, 0, 1);
        assertEquals(0, ResumePoint.prepare(job(2, false, "a"), store));
        assertEquals(List.of(), store.lines(0));

        for (long line = 1; line <= 3; line++) {
            write(store, 0, line);
        }
        write(store, 1, 1);
        write(store, 1, 2);

        assertEquals(2, ResumePoint.prepare(job(2, true, "a"), store));
        assertEquals(List.of(1L, 2L), store.lines(0), "rank 0's line 3 is past the line resumed");
    }

    @Test
    void resumingAnotherJobOrAFolderWithoutManifestIsRefused() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        IllegalArgumentException none =
                assertThrows(IllegalArgumentException.class, () -> ResumePoint.prepare(job(2, true), store));
        assertTrue(none.getMessage().contains("nothing to resume"), none.getMessage());

        ResumePoint.prepare(job(2, false, "x"), store);
        IllegalArgumentException other =
                assertThrows(IllegalArgumentException.class, () -> ResumePoint.prepare(job(3, true, "x"), store));
        assertTrue(other.getMessage().contains("another job"), other.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ResumePoint.prepare(job(2, true, "y"), store));
    }

    @Test
    void resumingNeedsACheckpointFolder() {
        assertThrows(
                IllegalArgumentException.class,
                () -> JobConfig.builder("com.example.Main").resume(true).build());
    }
}
