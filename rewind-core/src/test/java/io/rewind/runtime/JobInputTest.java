package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JobInputTest {
    @Test
    void readsAtAnyOffsetAgainAndEndsWhereTheSourceEnds() throws IOException {
        JobInput in = new JobInput(new ByteArrayInputStream("hello world".getBytes(StandardCharsets.US_ASCII)));
        byte[] b = new byte[5];
        assertEquals(5, in.read(0, b, 0, 5));
        assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), b);
        assertEquals(5, in.read(6, b, 0, 5));
        assertArrayEquals("world".getBytes(StandardCharsets.US_ASCII), b);
        assertEquals(5, in.read(0, b, 0, 5), "a restarted reader reads the same bytes again");
        assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), b);
        assertEquals(-1, in.read(11, b, 0, 5));
        assertEquals(0, in.read(3, b, 0, 0));
    }

    @Test
    void readsTheSourceOnlyAsFarAsAsked() throws Exception {
        PipedOutputStream feed = new PipedOutputStream();
        JobInput in = new JobInput(new PipedInputStream(feed));
        CompletableFuture<byte[]> first = in.readAsync(0, 100);
        feed.write("ab".getBytes(StandardCharsets.US_ASCII));
        feed.flush();
        assertArrayEquals("ab".getBytes(StandardCharsets.US_ASCII), first.get(10, TimeUnit.SECONDS));
        CompletableFuture<byte[]> past = in.readAsync(2, 1);
        feed.write("cd".getBytes(StandardCharsets.US_ASCII));
        feed.close();
        assertArrayEquals("c".getBytes(StandardCharsets.US_ASCII), past.get(10, TimeUnit.SECONDS), "at most max bytes");
        assertArrayEquals(new byte[0], in.readAsync(4, 10).get(10, TimeUnit.SECONDS), "empty at the end");
        assertEquals(4, in.kept());
    }

    @Test
    void ranksOtherThanZeroReadNothingAndARestartRewinds() throws IOException {
        JobInput job = new JobInput(new ByteArrayInputStream(new byte[] {1, 2, 3}));
        InputRouter.RankInput zero = new InputRouter.RankInput(0, job::read);
        InputRouter.RankInput one = new InputRouter.RankInput(1, job::read);
        byte[] b = new byte[2];
        assertEquals(-1, one.read(b, 0, 2));
        assertEquals(2, zero.read(b, 0, 2));
        assertEquals(2, zero.position());
        assertEquals(1, zero.read(b, 0, 2));
        assertEquals(3, b[0]);
        zero.rewindTo(1);
        assertEquals(2, zero.read(b, 0, 2));
        assertArrayEquals(new byte[] {2, 3}, b);
        assertEquals(-1, zero.read(b, 0, 2));
    }
}
