package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ranks' JVM options and environment cross an agent's command line as one word, unchanged. */
class RankJvmTest {
    @Test
    void whatIsEncodedIsWhatIsDecoded() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("A", "with spaces and 'quotes' and \"more\"");
        env.put("B", "line one\nline two");
        env.put("EMPTY", "");
        RankJvm settings =
                new RankJvm(List.of("-Xmx256m", "-Dk=a b", "--add-opens=java.base/java.lang=ALL-UNNAMED"), env);
        String word = settings.encoded();
        assertTrue(word.matches("[A-Za-z0-9_-]+"), "one word, nothing a shell or ssh would split: " + word);
        assertEquals(settings, RankJvm.decode(word));
        assertEquals(RankJvm.NONE, RankJvm.decode(RankJvm.NONE.encoded()));
    }

    @Test
    void aNameThatCannotBeAVariableIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RankJvm(List.of(), Map.of("A=B", "c")));
        assertThrows(IllegalArgumentException.class, () -> RankJvm.decode("not*base64"));
    }

    @Test
    void theOptionsComeAfterRewindsOwnAndBeforeTheClassPath() {
        List<String> cmd = JvmCommand.of("java", "cp", RankProcess.class, List.of("-Xshare:auto"), List.of("-Xmx1g"));
        int unsafe = cmd.indexOf("--sun-misc-unsafe-memory-access=allow");
        int archive = cmd.indexOf("-Xshare:auto");
        int user = cmd.indexOf("-Xmx1g");
        int cp = cmd.indexOf("-cp");
        assertTrue(unsafe < archive && archive < user && user < cp, cmd.toString());
        assertEquals(RankProcess.class.getName(), cmd.getLast());
    }
}
