package io.rewind.tools.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.tools.profile.InputFormatException;
import org.junit.jupiter.api.Test;

class RunRecordJsonTest {

    @Test
    void sampleParsesAndRoundTrips() throws Exception {
        RunRecord r = RunRecordJson.parse(ReportBrowserTest.sampleRunRecordJson(), "sample");
        assertEquals(64, r.ranks());
        assertEquals(21, r.logSamples().size());
        assertEquals("detect", r.recovery().get(0).phase());
        RunRecord again = RunRecordJson.parse(RunRecordJson.toJson(r), "again");
        assertEquals(r.protocolComparison(), again.protocolComparison());
    }

    @Test
    void readsRecordsWithoutLogMemoryAndKeepsItWhenPresent() {
        RunRecord old = RunRecordJson.parse(
                "{\"format\":\"rewind-run-record\",\"version\":1,\"ranks\":2,"
                        + "\"logSamples\":[{\"timeMs\":0,\"logBytes\":[0,0]},{\"timeMs\":200,\"logBytes\":[5,7]}]}",
                "old");
        assertEquals(2, old.logSamples().size());
        assertNull(old.logSamples().get(1).logMemoryBytes());
        assertFalse(old.hasLogMemory());
        assertFalse(RunRecordJson.toJson(old).contains("logMemoryBytes"), "no null field written back");

        RunRecord r = RunRecordJson.parse(
                "{\"format\":\"rewind-run-record\",\"version\":1,\"ranks\":2,\"logSamples\":["
                        + "{\"timeMs\":0,\"logBytes\":[0,0],\"logMemoryBytes\":[0,0]},"
                        + "{\"timeMs\":200,\"logBytes\":[5,7],\"logMemoryBytes\":[65536,131072]}]}",
                "new");
        assertTrue(r.hasLogMemory());
        assertArrayEquals(new long[] {65536, 131072}, r.logSamples().get(1).logMemoryBytes());
        RunRecord again = RunRecordJson.parse(RunRecordJson.toJson(r), "again");
        assertArrayEquals(new long[] {65536, 131072}, again.logSamples().get(1).logMemoryBytes());

        InputFormatException wrongSize = assertThrows(
                InputFormatException.class,
                () -> RunRecordJson.parse(
                        "{\"format\":\"rewind-run-record\",\"version\":1,\"ranks\":2,\"logSamples\":"
                                + "[{\"timeMs\":0,\"logBytes\":[1,2],\"logMemoryBytes\":[1]}]}",
                        "r"));
        assertTrue(
                wrongSize.getMessage().contains("logMemoryBytes must have one value per rank"), wrongSize.getMessage());
    }

    @Test
    void rejectsBrokenRecords() {
        InputFormatException bad = assertThrows(
                InputFormatException.class,
                () -> RunRecordJson.parse("{\"format\": \"rewind-run-record\",\n \"version\": 1,\n \"ranks\": }", "r"));
        assertEquals(3, bad.lineNumber(), bad.getMessage());
        InputFormatException wrongSize = assertThrows(
                InputFormatException.class,
                () -> RunRecordJson.parse(
                        "{\"format\":\"rewind-run-record\",\"version\":1,\"ranks\":2,\"logSamples\":[{\"timeMs\":0,\"logBytes\":[1]}]}",
                        "r"));
        assertTrue(wrongSize.getMessage().contains("one value per rank"), wrongSize.getMessage());
        assertThrows(
                InputFormatException.class,
                () -> RunRecordJson.parse("{\"format\":\"other\",\"version\":1,\"ranks\":2}", "r"));
    }
}
