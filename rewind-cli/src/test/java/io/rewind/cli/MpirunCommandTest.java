package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rewind mpirun} as a command: its help, and what it refuses, in one line and exit status 2. */
class MpirunCommandTest {
    @Test
    void helpListsOpenMpisOptionsInTheirOrder() {
        for (String help : List.of("--help", "-h")) {
            CommandRun r = CommandRun.of("mpirun", help);
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().startsWith("Usage: rewind mpirun [OPTIONS] java [JVM_OPTIONS] -cp CLASSPATH"), r.out());
            int np = r.out().indexOf("  -n, -np, --n, --np N");
            assertTrue(np > 0 && np < r.out().indexOf("-hostfile, --hostfile"), r.out());
            assertTrue(r.out().contains("--mca KEY VALUE"), r.out());
        }
        assertTrue(CommandRun.of("--help").out().contains("mpirun"), "listed among the commands");
    }

    @Test
    void whatItCannotHonourIsOneLine() {
        String[][] cases = {
            {"mpirun", "-np", "2", "--report-bindings", "java", "Main"},
            {"mpirun", "-np", "2", "--bind-to", "core", "java", "Main"},
            {"mpirun", "-np", "2"},
            {"mpirun", "-np", "2", "-x", "REWIND_SURELY_UNSET_VARIABLE", "java", "io.rewind.apps.examples.Hello"},
            {"mpirun", "-np", "2", "--protocol", "nonesuch", "java", "io.rewind.apps.examples.Hello"},
            {"mpirun", "-np", "2", "--timeout", "soon", "java", "io.rewind.apps.examples.Hello"}
        };
        String[] why = {
            "unknown option --report-bindings", "--bind-to core cannot be honoured", "no program",
            "REWIND_SURELY_UNSET_VARIABLE is not set here", "nonesuch", "'soon' is not a duration"
        };
        for (int i = 0; i < cases.length; i++) {
            CommandRun r = CommandRun.of(cases[i]);
            assertEquals(2, r.status(), List.of(cases[i]) + ": " + r.err());
            assertTrue(r.err().startsWith("rewind mpirun: "), r.err());
            assertTrue(r.err().lines().findFirst().orElse("").contains(why[i]), r.err());
            assertTrue(r.err().lines().count() <= 2, r.err());
            assertEquals("", r.out());
        }
    }
}
