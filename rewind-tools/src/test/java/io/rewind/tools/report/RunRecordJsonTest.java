package io.rewind.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
