package io.rewind.runtime.watch;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The MBeans of one running job in the platform MBean server: one for the job, one per rank, over its
 * {@link JobFigures}; registered while the job runs, unregistered at its end. A second job of the same
 * name in this JVM is named {@code NAME-2}, and so on.
 */
public final class JobMBeans {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new ArrayList<>();
    private String name;

    /** Registers the job's MBeans; the name they got. */
    public synchronized String register(JobFigures figures) {
        for (int n = 1; ; n++) {
            String candidate = n == 1 ? figures.name() : figures.name() + "-" + n;
            try {
                ObjectName job = new ObjectName("io.rewind:type=Job,name=" + ObjectName.quote(candidate));
                server.registerMBean(new JobBean(figures), job);
                registered.add(job);
                name = candidate;
                break;
            } catch (InstanceAlreadyExistsException taken) {
                // another job of this JVM has that name: the next one
            } catch (JMException e) {
                throw new IllegalStateException("cannot register the job's MBean: " + e, e);
            }
        }
        for (int r = 0; r < figures.rankCount(); r++) {
            try {
                ObjectName rank = rankName(name, r);
                server.registerMBean(new RankBean(figures.rank(r)), rank);
                registered.add(rank);
            } catch (JMException e) {
                throw new IllegalStateException("cannot register rank " + r + "'s MBean: " + e, e);
            }
        }
        return name;
    }

    /** The name of rank {@code rank}'s MBean of the job registered as {@code job}. */
    public static ObjectName rankName(String job, int rank) throws JMException {
        return new ObjectName("io.rewind:type=Rank,job=" + ObjectName.quote(job) + ",rank=" + rank);
    }

    /** The name of the MBean of the job registered as {@code job}. */
    public static ObjectName jobName(String job) throws JMException {
        return new ObjectName("io.rewind:type=Job,name=" + ObjectName.quote(job));
    }

    public synchronized void unregister() {
        for (ObjectName n : registered) {
            try {
                server.unregisterMBean(n);
            } catch (JMException e) {
                // gone already
            }
        }
        registered.clear();
    }

    private record JobBean(JobFigures f) implements JobMXBean {
        @Override
        public String getName() {
            return f.name();
        }

        @Override
        public int getRanks() {
            return f.rankCount();
        }

        @Override
        public int getRunningRanks() {
            return f.running();
        }

        @Override
        public double getElapsedSeconds() {
            return f.elapsedSeconds();
        }

        @Override
        public String getState() {
            return f.state();
        }

        @Override
        public long getCheckpoints() {
            return f.checkpoints();
        }

        @Override
        public long getFailures() {
            return f.failures();
        }

        @Override
        public long getRecoveries() {
            return f.recoveries();
        }
    }

    private record RankBean(JobFigures.Rank r) implements RankMXBean {
        @Override
        public int getRank() {
            return r.rank();
        }

        @Override
        public String getState() {
            return r.state().name();
        }

        @Override
        public int getIncarnation() {
            return r.incarnation();
        }

        @Override
        public long getPoints() {
            return r.points();
        }

        @Override
        public long getOperations() {
            return r.operations();
        }

        @Override
        public long getLines() {
            return r.lines();
        }

        @Override
        public long getRecoveries() {
            return r.recoveries();
        }
    }
}
