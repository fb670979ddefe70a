package io.rewind.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.tools.profile.Traffic;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log charts of a report drawn from a run record alone. */
class HtmlReportTest {

    /** A record of {@code ranks} ranks whose logs grow for {@code samples} samples; memory only if asked. */
    static String record(int ranks, int samples, boolean withMemory) {
        StringBuilder json = new StringBuilder("{\"format\":\"rewind-run-record\",\"version\":1,"
                + "\"application\":\"stencil\",\"protocol\":\"pessimistic\",\"ranks\":" + ranks
                + ",\"logSamples\":[");
        for (int i = 0; i < samples; i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"timeMs\":")
                    .append(200 * i)
                    .append(",\"logBytes\":[");
            for (int r = 0; r < ranks; r++) {
                json.append(r == 0 ? "" : ",").append((long) i * (r + 1) * 100_000);
            }
            json.append("]");
            if (withMemory) {
                json.append(",\"logMemoryBytes\":[");
                for (int r = 0; r < ranks; r++) {
                    // Whole 2 MiB blocks, one more than the payload needs (a spare).
                    long payload = (long) i * (r + 1) * 100_000;
                    json.append(r == 0 ? "" : ",").append((payload / (2 << 20) + 2) * (2 << 20));
                }
                json.append("]");
            }
            json.append("}");
        }
        return json.append("]}").toString();
    }

    static String render(String json) {
        RunRecord run = RunRecordJson.parse(json, "run.json");
        return HtmlReport.render(new ReportInput("Rewind report: run", null, Traffic.P2P, null, run, null));
    }

    @Test
    void drawsTheLogMemoryBesideThePayload() {
        String html = render(record(12, 6, true));
        assertTrue(html.contains("<figure class=\"plot\" id=\"log-growth\">"), "payload chart");
        assertTrue(html.contains("<figure class=\"plot\" id=\"log-memory\">"), "memory chart");
        int memory = html.indexOf("id=\"log-memory\"");
        String chart = html.substring(memory, html.indexOf("</figure>", memory));
        assertTrue(chart.contains("Log memory per rank over time (pessimistic)"), chart);
        assertTrue(chart.contains("log memory (MiB)"), "axis with its unit: " + chart);
        assertTrue(chart.contains("largest of all ranks") && chart.contains("mean of all ranks"), chart);
        // 12 ranks: the 8 with the largest final payload log, as in the payload chart (rank 11 first).
        assertTrue(chart.contains(">rank 11<") && chart.contains(">rank 4<"), chart);
        assertFalse(chart.contains(">rank 3<"), "rank 3 is not among the 8: " + chart);
    }

    /** The log-growth figure of a rendered report. */
    static String logGrowthChart(String html) {
        int at = html.indexOf("id=\"log-growth\"");
        return html.substring(at, html.indexOf("</figure>", at));
    }

    @Test
    void drawsTheLoggerNodesQuotaAcrossThePayloadChart() {
        // As the runtime writes it: the logger nodes' figures, with their quota, at the record's top level.
        String json = record(4, 6, true)
                .replaceFirst("\\{", "{\"loggerNodes\":{\"loggers\":1,\"logQuotaBytes\":3000000,\"dumpsPerRank\":[]},");
        RunRecord run = RunRecordJson.parse(json, "run.json");
        assertEquals(3_000_000L, run.quotaBytes());
        String chart = logGrowthChart(render(json));
        assertTrue(chart.contains(">log quota<"), "legend entry: " + chart);
        assertTrue(chart.contains("dashed line is the log quota (2.86 MiB)"), chart);
        // The largest log is 2 MB (rank 3 at the last sample), the quota 3 MB: the axis reaches the quota.
        assertTrue(chart.contains("log size (MiB)"), chart);
    }

    @Test
    void mcmlsTopLevelQuotaIsDrawnToo() {
        String json = record(2, 3, false).replaceFirst("\\{", "{\"logQuotaBytes\":150000,");
        assertEquals(150_000L, RunRecordJson.parse(json, "run.json").quotaBytes());
        assertTrue(logGrowthChart(render(json)).contains(">log quota<"));
    }

    @Test
    void noQuotaNoLine() {
        String json = record(3, 4, true);
        assertNull(RunRecordJson.parse(json, "run.json").quotaBytes());
        assertFalse(logGrowthChart(render(json)).contains("log quota"));
    }

    /** The log-memory figure of a rendered report. */
    static String logMemoryChart(String html) {
        int at = html.indexOf("id=\"log-memory\"");
        return html.substring(at, html.indexOf("</figure>", at));
    }

    @Test
    void drawsTheLogReserveAcrossTheMemoryChart() {
        String json = record(4, 6, true).replaceFirst("\\{", "{\"logReserveBytes\":67108864,");
        assertEquals(67_108_864L, RunRecordJson.parse(json, "run.json").logReserveBytes());
        String chart = logMemoryChart(render(json));
        assertTrue(chart.contains(">log reserve<"), "legend entry: " + chart);
        assertTrue(chart.contains("dashed line is the reserve (64.00 MiB)"), chart);
        assertFalse(logMemoryChart(render(record(4, 6, true))).contains("log reserve"), "no reserve, no line");
    }

    @Test
    void aRecordWithoutLogMemorySaysSoInsteadOfAChart() {
        String html = render(record(3, 4, false));
        assertTrue(html.contains("<figure class=\"plot\" id=\"log-growth\">"), "payload chart still drawn");
        assertFalse(html.contains("<figure class=\"plot\" id=\"log-memory\">"));
        assertTrue(html.contains("<figure class=\"missing\" id=\"log-memory\">"), "placeholder");
    }

    @Test
    @Tag("browser") // needs Debian's chromium, which the full run installs; the fast tier leaves it out
    void theLogMemoryChartRendersInHeadlessChromium(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("report.html");
        Files.writeString(page, render(record(12, 6, true)));
        String dom = ReportBrowserTest.runChromium(
                dir, java.util.List.of("--dump-dom", page.toUri().toString()));
        assertTrue(dom.contains("data-render=\"ok\""), "page script did not confirm all plots");
        assertTrue(dom.contains("data-js-errors=\"0\""), "script errors recorded");
    }

    @Test
    void everyRankARecoveryRolledBackHasARow() {
        // A cluster of ranks 0-1 rolled back for rank 1's failure: the record has phases for rank 1 only.
        String json = "{\"format\":\"rewind-run-record\",\"version\":1,\"application\":\"x\","
                + "\"protocol\":\"spbc\",\"ranks\":4,\"logSamples\":[],\"recovery\":["
                + "{\"rank\":1,\"phase\":\"detect\",\"startMs\":100,\"endMs\":110},"
                + "{\"rank\":1,\"phase\":\"restore\",\"startMs\":110,\"endMs\":150}],"
                + "\"failures\":[{\"rank\":1,\"line\":2,\"rolledBack\":[0,1]}]}";
        String page = render(json);
        assertTrue(page.contains(">rank 0<"), "the rank rolled back with the failed one has its row");
        assertTrue(page.contains("rolled back with it"), page);
        assertFalse(page.contains("id=\"model-time\""), "no model without model inputs");
    }
}
