package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.testprograms.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node lost with its agent (over ssh or under Slurm, where no one else reaches its disk) leaves its
 * checkpoint folder on its host; the next agent that makes a folder under the same root removes it, and
 * never the folder of a live agent, one that changed a moment ago, or anything not named as a node folder.
 */
@Tag("process")
class NodeFolderSweepTest {

    /** Starts a real JVM that makes node {@code node}'s folder under {@code root}; returns it once made. */
    private static Process agentOf(String node, Path root, Path[] folder) throws Exception {
        ChildJvm agent = ChildJvm.start(NodeFolderUser.class, node, root.toString());
        String line = agent.firstLine();
        assertTrue(line != null && line.startsWith(root.toString()), "the agent did not start: " + line);
        folder[0] = Path.of(line);
        return agent.process();
    }

    private static void age(Path folder) throws Exception {
        Files.setLastModifiedTime(
                folder,
                FileTime.fromMillis(
                        System.currentTimeMillis() - Duration.ofHours(1).toMillis()));
    }

    @Test
    void theFolderOfAKilledAgentIsRemovedByTheNextAndALiveOneIsKept(@TempDir Path root) throws Exception {
        Path[] dead = new Path[1];
        Path[] live = new Path[1];
        Process deadAgent = agentOf("node-a", root, dead);
        Process liveAgent = agentOf("node-b", root, live);
        try {
            Files.writeString(dead[0].resolve("line"), "a checkpoint");
            age(dead[0]);
            age(live[0]);
            Path recent = Files.createDirectory(root.resolve("rewind-node-being-made-1"));
            Path other = Files.createDirectory(root.resolve("someone-elses"));
            age(other);

            Path first = NodeAgent.ownFolder("node-c", root.toString());
            assertTrue(Files.isDirectory(dead[0]), "its agent still holds it");

            deadAgent.destroyForcibly(); // SIGKILL, as when its node is lost
            assertTrue(deadAgent.waitFor(30, TimeUnit.SECONDS));
            assertTrue(Files.isDirectory(dead[0]), "a killed agent leaves its folder");

            Path next = NodeAgent.ownFolder("node-d", root.toString());
            assertFalse(Files.exists(dead[0]), "the killed agent's folder is removed");
            assertTrue(Files.isDirectory(live[0]), "a live agent's folder stays");
            assertTrue(Files.isDirectory(recent), "a folder changed a moment ago stays");
            assertTrue(Files.isDirectory(other), "not a node folder");
            assertTrue(Files.isDirectory(first), "this process holds its own");
            assertTrue(next.getFileName().toString().startsWith("rewind-node-node-d-"), next.toString());
            assertEquals(
                    "rw-------",
                    java.nio.file.attribute.PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(next.resolve("in-use"))));
        } finally {
            deadAgent.destroyForcibly();
            liveAgent.destroyForcibly();
            liveAgent.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
