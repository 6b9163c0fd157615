/*
 * Local-development helper for deploy/local/kafka.sh: waits until the broker answers a
 * topic listing, then creates the missing topics (idempotent) in one JVM.
 *
 *   java -cp "<kafka-libs>/*:<classes>" CreateTopics --bootstrap 127.0.0.1:9092 [--wait 60]
 *        name:partitions:policy ...          (policy = delete | compact | keep)
 *
 * keep = cleanup.policy delete with no time or size retention (retention.ms and retention.bytes -1): the
 * topics of decisions.md section 8 that any consumer must be able to rebuild from offset zero.
 *   java ... CreateTopics --bootstrap 127.0.0.1:9092 --describe
 *
 * Existing topics are kept; a wrong cleanup.policy is corrected and a too small partition
 * count is increased. Exit code 0 on success, 1 on error, 2 on bad usage.
 */
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

public class CreateTopics {

    record Spec(String name, int partitions, String policy) {
        /** The topic configuration this spec asks for. */
        Map<String, String> configs() {
            return policy.equals("keep")
                    ? Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, "delete", TopicConfig.RETENTION_MS_CONFIG, "-1",
                            TopicConfig.RETENTION_BYTES_CONFIG, "-1")
                    : Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, policy);
        }
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = null;
        int waitSeconds = 0;
        boolean describe = false;
        String label = "kafka";
        List<Spec> specs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap" -> bootstrap = args[++i];
                case "--wait" -> waitSeconds = Integer.parseInt(args[++i]);
                case "--label" -> label = args[++i];
                case "--describe" -> describe = true;
                default -> {
                    String[] p = args[i].split(":");
                    if (p.length != 3 || !(p[2].equals("delete") || p[2].equals("compact") || p[2].equals("keep"))) {
                        usage("bad topic spec '" + args[i] + "' (want name:partitions:delete|compact|keep)");
                    }
                    specs.add(new Spec(p[0], Integer.parseInt(p[1]), p[2]));
                }
            }
        }
        if (bootstrap == null) usage("--bootstrap is required");

        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "local-create-topics");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");

        try (Admin admin = Admin.create(props)) {
            Set<String> existing = listTopics(admin, bootstrap, waitSeconds);
            if (describe) {
                describe(admin, existing);
                return;
            }
            ensure(admin, label, specs, existing);
        } catch (ExecutionException e) {
            System.err.println("ERROR: " + label + ": " + e.getCause());
            System.exit(1);
        }
    }

    static void usage(String msg) {
        System.err.println("ERROR: " + msg);
        System.err.println("usage: CreateTopics --bootstrap HOST:PORT [--wait SECONDS] [--label L] "
                + "(name:partitions:delete|compact|keep ... | --describe)");
        System.exit(2);
    }

    /** Lists topics, retrying until it works or waitSeconds pass. */
    static Set<String> listTopics(Admin admin, String bootstrap, int waitSeconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        while (true) {
            try {
                return new TreeSet<>(admin.listTopics().names().get(5, TimeUnit.SECONDS));
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    System.err.println("ERROR: topic listing on " + bootstrap + " failed after "
                            + waitSeconds + " s: " + e);
                    System.exit(1);
                }
                Thread.sleep(300);
            }
        }
    }

    static void ensure(Admin admin, String label, List<Spec> specs, Set<String> existing) throws Exception {
        List<String> created = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        List<String> fixed = new ArrayList<>();
        List<NewTopic> toCreate = new ArrayList<>();
        List<Spec> toCheck = new ArrayList<>();
        for (Spec s : specs) {
            if (existing.contains(s.name())) {
                toCheck.add(s);
            } else {
                toCreate.add(new NewTopic(s.name(), s.partitions(), (short) 1)
                        .configs(s.configs()));
            }
        }
        if (!toCreate.isEmpty()) {
            CreateTopicsResult res = admin.createTopics(toCreate);
            for (NewTopic t : toCreate) {
                Spec s = specs.stream().filter(x -> x.name().equals(t.name())).findFirst().orElseThrow();
                try {
                    res.values().get(t.name()).get();
                    created.add(s.name());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicExistsException) {
                        toCheck.add(s); // created concurrently by someone else
                    } else {
                        throw e;
                    }
                }
            }
        }
        if (!toCheck.isEmpty()) check(admin, toCheck, kept, fixed);
        StringBuilder line = new StringBuilder("==> " + label + ": topics ok");
        if (!created.isEmpty()) line.append("; created ").append(String.join(", ", created));
        if (!kept.isEmpty()) line.append("; kept ").append(kept.size()).append(" existing");
        if (!fixed.isEmpty()) line.append("; fixed ").append(String.join(", ", fixed));
        line.append(" [compacted: ").append(String.join(", ", specs.stream()
                .filter(x -> x.policy().equals("compact")).map(Spec::name).toList()))
                .append("; kept forever: ").append(String.join(", ", specs.stream()
                .filter(x -> x.policy().equals("keep")).map(Spec::name).toList())).append("]");
        System.out.println(line);
    }

    static void check(Admin admin, List<Spec> toCheck, List<String> kept, List<String> fixed) throws Exception {

        List<String> names = toCheck.stream().map(Spec::name).toList();
        Map<String, TopicDescription> descs = admin.describeTopics(names).allTopicNames().get();
        Map<ConfigResource, Config> configs = admin.describeConfigs(names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList()).all().get();
        Map<ConfigResource, Collection<AlterConfigOp>> fixes = new HashMap<>();
        Map<String, NewPartitions> grow = new LinkedHashMap<>();
        for (Spec s : toCheck) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, s.name());
            int parts = descs.get(s.name()).partitions().size();
            List<String> notes = new ArrayList<>();
            List<AlterConfigOp> ops = new ArrayList<>();
            for (Map.Entry<String, String> wanted : s.configs().entrySet()) {
                ConfigEntry entry = configs.get(r).get(wanted.getKey());
                String actual = entry == null ? null : entry.value();
                if (!wanted.getValue().equals(actual)) {
                    ops.add(new AlterConfigOp(new ConfigEntry(wanted.getKey(), wanted.getValue()),
                            AlterConfigOp.OpType.SET));
                    notes.add(wanted.getKey() + " " + actual + " -> " + wanted.getValue());
                }
            }
            if (!ops.isEmpty()) {
                fixes.put(r, ops);
            }
            if (parts < s.partitions()) {
                grow.put(s.name(), NewPartitions.increaseTo(s.partitions()));
                notes.add("partitions " + parts + " -> " + s.partitions());
            }
            if (notes.isEmpty()) {
                kept.add(s.name());
            } else {
                fixed.add(s.name() + " (" + String.join(", ", notes) + ")");
            }
        }
        if (!fixes.isEmpty()) admin.incrementalAlterConfigs(fixes).all().get();
        if (!grow.isEmpty()) admin.createPartitions(grow).all().get();
    }

    static void describe(Admin admin, Set<String> names) throws Exception {
        if (names.isEmpty()) {
            System.out.println("(no topics)");
            return;
        }
        Map<String, TopicDescription> descs = admin.describeTopics(names).allTopicNames().get();
        Map<ConfigResource, Config> configs = admin.describeConfigs(names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList()).all().get();
        for (String n : names) {
            Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, n));
            ConfigEntry policy = c.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            ConfigEntry retention = c.get(TopicConfig.RETENTION_MS_CONFIG);
            System.out.printf("%-28s partitions=%d cleanup.policy=%s retention.ms=%s%n",
                    n, descs.get(n).partitions().size(), policy == null ? "?" : policy.value(),
                    retention == null ? "?" : retention.value());
        }
    }
}
