package io.rewind.launch;

/**
 * A process that makes a node's own checkpoint folder, as an agent does, and lives until it is killed:
 * for {@link NodeFolderSweepTest}. Arguments: the node's name and the root folder. Prints the folder's
 * path once it is made.
 */
public final class NodeFolderUser {
    private NodeFolderUser() {}

    public static void main(String[] args) throws Exception {
        System.out.println(NodeAgent.ownFolder(args[0], args[1]));
        System.out.flush();
        System.in.read(); // until killed (or its parent closes the pipe)
    }
}
