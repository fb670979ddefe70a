package io.rewind.transport.shm;

import io.rewind.transport.JobSecret;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * A process that opens a job's shared-memory folder and lives until it is killed: what a rank
 * process does, for {@link ShmFolderSweepTest}. Arguments: the root folder and the job's key in hex.
 * Prints {@code open} once the folder is open.
 */
public final class ShmFolderUser {
    private ShmFolderUser() {}

    public static void main(String[] args) throws Exception {
        ShmFolder.open(Path.of(args[0]), JobSecret.of(HexFormat.of().parseHex(args[1])));
        System.out.println("open");
        System.out.flush();
        System.in.read(); // until killed (or its parent closes the pipe)
    }
}
