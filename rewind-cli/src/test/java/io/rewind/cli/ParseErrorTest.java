package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Options a command cannot take are answered in a few lines, not with the whole usage; Open MPI's habits
 * (-np, a java word before the main class) are understood or refused in one line.
 */
class ParseErrorTest {
    @Test
    void anUnknownOptionIsOneLineAGuessAndWhereTheOptionsAre() {
        CommandRun r = CommandRun.of("run", "--protocl", "pessimistic", "com.example.Main");
        assertEquals(2, r.status());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.size() <= 3, r.err());
        assertTrue(lines.getFirst().startsWith("rewind run: Unknown option: '--protocl'"), r.err());
        assertTrue(r.err().contains("--protocol"), "a guess at what was meant: " + r.err());
        assertEquals("See 'rewind run --help' for its options.", lines.getLast());
        assertEquals("", r.out());
    }

    @Test
    void aValueThatCannotBeReadIsOneLineAndWhereTheOptionsAre() {
        CommandRun r = CommandRun.of("run", "-n", "p", "com.example.Main");
        assertEquals(2, r.status());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.size() <= 3, r.err());
        assertTrue(lines.getFirst().startsWith("rewind run: "), r.err());
        assertTrue(lines.getFirst().contains("'p'"), r.err());
        assertEquals("See 'rewind run --help' for its options.", lines.getLast());
    }

    @Test
    void openMpisNpIsTheNumberOfRanks() {
        CommandRun r = CommandRun.of("run", "-np", "2", "--summary", "--no-record", "io.rewind.apps.examples.Hello");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains(", 2 ranks"), r.err()); // the summary, on standard error
    }

    @Test
    void aMainClassNotFoundIsOneLineNamingTheClassPathNotAFailurePerRank(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path empty) {
        CommandRun r = CommandRun.of("run", "-n", "4", "-cp", empty.toString(), "com.example.Main");
        assertEquals(2, r.status(), r.out() + r.err());
        assertEquals(
                List.of("rewind run: main class com.example.Main not found in " + empty + " (-cp CLASSPATH names the "
                        + "jars and folders of the program's classes)"),
                r.err().lines().toList());
        assertEquals("", r.out());
        // The word java and no main class after it.
        CommandRun java = CommandRun.of("run", "-n", "4", "-cp", empty.toString(), "java");
        assertTrue(java.err().startsWith("rewind run: java needs a main class"), java.err());
    }

    @Test
    void aStrayJavaWordIsReadAsTheJavaLauncherReadsIt() {
        String classes = classesOf(io.rewind.cliprograms.ShowsJvmSettings.class);
        CommandRun r = CommandRun.of(
                "run",
                "-n",
                "2",
                "--no-record",
                "java",
                "-cp",
                classes,
                "io.rewind.cliprograms.ShowsJvmSettings",
                "a",
                "--b");
        assertEquals(0, r.status(), r.out() + r.err());
        // Threads share this JVM: its options cannot be theirs.
        CommandRun jvm = CommandRun.of(
                "run",
                "-n",
                "2",
                "--no-record",
                "java",
                "-Xmx256m",
                "-cp",
                classes,
                "io.rewind.cliprograms.ShowsJvmSettings");
        assertEquals(2, jvm.status(), jvm.out() + jvm.err());
        assertEquals(
                List.of("rewind run: JVM options for the ranks need ranks as processes, which threads of this JVM "
                        + "are not: add --launch local"),
                jvm.err().lines().toList());
        CommandRun env = CommandRun.of("run", "-n", "2", "-x", "A=1", "io.rewind.apps.examples.Hello");
        assertEquals(2, env.status(), env.out() + env.err());
        assertTrue(env.err().startsWith("rewind run: --env for the ranks needs ranks as processes"), env.err());
        // A java word with nothing to run, or two class paths, is refused in one line.
        CommandRun noMain = CommandRun.of("run", "-n", "2", "java", "-cp", classes);
        assertEquals(2, noMain.status());
        assertEquals(1, noMain.err().lines().count(), noMain.err());
        CommandRun twice = CommandRun.of("run", "-cp", classes, "java", "-cp", classes, "Main");
        assertEquals(2, twice.status());
        assertTrue(twice.err().startsWith("rewind run: two class paths"), twice.err());
    }

    @Test
    void aHostfileWithAnotherLaunchModeIsRefused() {
        CommandRun r =
                CommandRun.of("run", "--hostfile", "hosts", "--launch", "local", "io.rewind.apps.examples.Hello");
        assertEquals(2, r.status());
        assertEquals(
                List.of("rewind run: --hostfile places ranks over ssh, but --launch is local: drop one of them"),
                r.err().lines().toList());
        // Alone it means ssh, which reads it.
        CommandRun alone = CommandRun.of("run", "--hostfile", "no-such-hosts", "io.rewind.apps.examples.Hello");
        assertEquals(2, alone.status());
        assertTrue(alone.err().startsWith("rewind run: cannot read the hostfile no-such-hosts"), alone.err());
    }

    static String classesOf(Class<?> c) {
        try {
            return java.nio.file.Path.of(c.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void helpIsWrappedToTheColumnsTheShellExports() {
        assertEquals(120, RewindCommand.columns("120"));
        assertEquals(55, RewindCommand.columns("20"));
        assertEquals(0, RewindCommand.columns(null));
        assertEquals(0, RewindCommand.columns("wide"));
    }
}
