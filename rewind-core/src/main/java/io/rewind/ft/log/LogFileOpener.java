package io.rewind.ft.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens the mapped log file. A seam so that tests can make the file system fail (full disk, failed
 * mapping) without privileges the test machine may lack.
 */
@FunctionalInterface
interface LogFileOpener {

    LogFileOpener DEFAULT = file -> FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);

    FileChannel open(Path file) throws IOException;
}
