package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecentRunRecordsTest {
    @Test
    void aNewRecordLeavesTheNewestRecordsOnlyAndNothingElseTouched(@TempDir Path dir) throws IOException {
        Path folder = dir.resolve("rewind-runs-someone");
        Files.createDirectory(folder);
        int made = RecentRunRecords.KEPT + 5;
        for (int i = 0; i < made; i++) {
            Path p = Files.writeString(folder.resolve("run-" + (1000 + i) + "-1.json"), "{}");
            // The oldest first: record i was last written i minutes after the first.
            Files.setLastModifiedTime(p, FileTime.fromMillis(1_700_000_000_000L + i * 60_000L));
        }
        Path other = Files.writeString(folder.resolve("notes.txt"), "mine");
        Files.setLastModifiedTime(other, FileTime.fromMillis(0));

        Path next = RecentRunRecords.next(folder);

        assertEquals(folder, next.getParent());
        assertFalse(Files.exists(next), "the new record is the run's to write");
        List<String> left = names(folder);
        List<String> newest = IntStream.range(made - (RecentRunRecords.KEPT - 1), made)
                .mapToObj(i -> "run-" + (1000 + i) + "-1.json")
                .toList();
        assertEquals(newest.size() + 1, left.size(), left.toString());
        assertTrue(left.containsAll(newest), left.toString());
        assertTrue(left.contains("notes.txt"), left.toString());
    }

    @Test
    void aMissingFolderIsMadeForItsOwnerOnly(@TempDir Path dir) throws IOException {
        Path folder = dir.resolve("rewind-runs-someone");
        Path next = RecentRunRecords.next(folder);
        assertTrue(Files.isDirectory(folder));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        assertTrue(next.getFileName().toString().matches("run-\\d+-\\d+\\.json"), next.toString());
    }

    @Test
    void fewerRecordsThanKeptAreAllKept(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("run-1-1.json"), "{}");
        Files.writeString(dir.resolve("run-2-1.json"), "{}");
        RecentRunRecords.next(dir);
        assertEquals(List.of("run-1-1.json", "run-2-1.json"), names(dir));
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
