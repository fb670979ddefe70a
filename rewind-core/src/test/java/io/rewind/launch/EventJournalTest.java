package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rewind.engine.FaultTolerance;
import io.rewind.ft.EventLogger;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventJournalTest {
    @TempDir
    Path dir;

    @Test
    void everythingAppendedIsReadBackByTheNextProcess() throws Exception {
        Path file = dir.resolve("events.journal");
        try (EventJournal j = EventJournal.open(file, new EventLogger(2))) {
            j.wildcard(1, 7, 0, 42, 3);
            j.poll(0, 2, new long[] {5, 6});
            j.poll(0, 3, new long[0]);
            j.poll(0, 4, new long[0]);
        }
        EventLogger back = new EventLogger(2);
        try (EventJournal j = EventJournal.open(file, back)) {
            j.wildcard(1, 8, 0, 43, 4);
        }
        assertEquals(new FaultTolerance.ForcedMatch(0, 42, 3), back.wildcard(1, 7));
        assertArrayEquals(new long[] {5, 6}, back.poll(0, 2));
        assertArrayEquals(new long[0], back.poll(0, 4));
        EventLogger again = new EventLogger(2);
        EventJournal.open(file, again).close();
        assertEquals(new FaultTolerance.ForcedMatch(0, 43, 4), again.wildcard(1, 8));
    }

    @Test
    void aRecordCutShortOrDamagedAtTheEndIsDroppedAndTheFileCutBack() throws Exception {
        Path file = dir.resolve("events.journal");
        try (EventJournal j = EventJournal.open(file, new EventLogger(1))) {
            j.wildcard(0, 1, 0, 1, 1);
            j.wildcard(0, 2, 0, 2, 2);
        }
        long whole = Files.size(file);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(whole - 3); // the second record torn
        }
        EventLogger back = new EventLogger(1);
        EventJournal.open(file, back).close();
        assertEquals(new FaultTolerance.ForcedMatch(0, 1, 1), back.wildcard(0, 1));
        assertNull(back.wildcard(0, 2));
        assertEquals(whole / 2, Files.size(file));

        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(10);
            f.write(0x7f); // the first record damaged
        }
        EventLogger none = new EventLogger(1);
        EventJournal.open(file, none).close();
        assertNull(none.wildcard(0, 1));
        assertEquals(0, Files.size(file));
    }
}
