/// What `schedule --print-kubernetes` describes: the sites to refresh, each on its own
/// CronJob, the one volume of mirrors, the config, and the serve Deployment. A plain value;
/// ``KubernetesManifests/render(_:)`` turns it into manifests.
public struct KubernetesFleet: Sendable {
    /// Where things are inside every pod.
    public enum PodLayout {
        /// The ConfigMap's mount: `config.json` and the public files it names.
        public static let configFolder = "/etc/mtls-mirror/config"
        /// The config every pod runs with.
        public static let configPath = configFolder + "/config.json"
        /// Each site's Secret is mounted at `secretsFolder/SITE`, in that site's pods only.
        public static let secretsFolder = "/etc/mtls-mirror/secrets"
        /// The serve token's Secret mount (`token`).
        public static let serveTokenFolder = "/etc/mtls-mirror/serve"
        /// The PersistentVolumeClaim's mount: the output root.
        public static let outputRoot = "/var/lib/mtls-mirror"
        /// The user and group the image runs as (packaging/Containerfile).
        public static let user = 10001

        /// The path of a site's secret file `key`.
        public static func secretPath(site: String, key: String) -> String { secretsFolder + "/" + site + "/" + key }
    }

    /// One site: its CronJob's schedule, deadline and memory, and the keys of its Secret.
    public struct Site: Sendable {
        /// The site's name in the config.
        public var name: String
        public var schedule: CronSchedule
        public var deadline: RunDeadline
        public var memory: MemoryBudget
        /// The keys the site's Secret must hold (`identity`, `password`, …); none: no Secret.
        public var secretKeys: [String]
        /// Whether `serve` fetches the site's missing pages live (its Secret then goes to the
        /// serve pod too).
        public var live: Bool

        /// The CronJob's name.
        public var objectName: String { KubernetesName.site(name) }
        /// The Secret's name.
        public var secretName: String { objectName + "-identity" }

        public init(name: String, schedule: CronSchedule, deadline: RunDeadline, memory: MemoryBudget, secretKeys: [String], live: Bool) {
            self.name = name
            self.schedule = schedule
            self.deadline = deadline
            self.memory = memory
            self.secretKeys = secretKeys
            self.live = live
        }
    }

    /// A file of the config's ConfigMap.
    public struct ConfigFile: Sendable {
        /// The key, which is also the file name under ``PodLayout/configFolder``.
        public var key: String
        /// The content: text goes to `data`, anything else to `binaryData`.
        public var bytes: [UInt8]
        public init(key: String, bytes: [UInt8]) {
            self.key = key
            self.bytes = bytes
        }
    }

    /// The refreshed sites, in config order.
    public var sites: [Site]
    /// The image holding `/usr/bin/mtls-mirror` (packaging/Containerfile).
    public var image: String
    /// The namespace of every object; `nil` leaves it to `kubectl apply -n`.
    public var namespace: String?
    /// `config.json` (rewritten for the pods) and the public files it names.
    public var configFiles: [ConfigFile]
    /// The volume's size request (`10Gi`).
    public var volumeSize: String
    /// The volume's storage class; `nil` takes the cluster's default.
    public var storageClass: String?
    /// The port `serve` listens on (`serve.port`).
    public var servePort: Int
    /// Comment lines the caller adds to the header: the commands that create the Secrets.
    public var secretCommands: [String]
    /// Where the fleet came from, for the header (the config's path).
    public var source: String

    public init(sites: [Site], image: String, namespace: String?, configFiles: [ConfigFile], volumeSize: String, storageClass: String?,
                servePort: Int, secretCommands: [String], source: String) {
        self.sites = sites
        self.image = image
        self.namespace = namespace
        self.configFiles = configFiles
        self.volumeSize = volumeSize
        self.storageClass = storageClass
        self.servePort = servePort
        self.secretCommands = secretCommands
        self.source = source
    }

    /// The objects' common names.
    public enum Names {
        public static let config = "mtls-mirror-config"
        public static let volume = "mtls-mirror-data"
        public static let serve = "mtls-mirror-serve"
        public static let serveToken = "mtls-mirror-serve-token"
    }
}
