/** serviceUnit renders a systemd unit for the service, hardened, with its state and cache dirs. */
export interface UnitOptions {
  exec: string;
  user: string;
  dataDir: string;
  envFile: string;
  /** docsUrl: where the running service's explorer is, for systemd's Documentation= (http, https, file or man URI) */
  docsUrl: string;
}

export function serviceUnit(o: UnitOptions): string {
  return `# docintel.service: install with
#   sudo useradd --system --home ${o.dataDir} --shell /usr/sbin/nologin ${o.user}
#   sudo install -m 0755 dist/docintel ${o.exec}
#   docintel service-unit | sudo tee /etc/systemd/system/docintel.service
#   sudo systemctl daemon-reload && sudo systemctl enable --now docintel
#   sudo cat ${o.dataDir}/bootstrap-key && sudo rm ${o.dataDir}/bootstrap-key   # the first key (not in the journal)
#   sudo -u ${o.user} docintel keys create --plan free   # more keys, in the same data dir
[Unit]
Description=docintel document intelligence service
Documentation=${o.docsUrl}
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${o.user}
Group=${o.user}
# Settings as DOCINTEL_* variables (DOCINTEL_PORT=8080, GROQ_API_KEY=...); the file is optional.
# Several machines on one PostgreSQL database (README "Running several machines") each set, the same
# on every machine, DOCINTEL_DATABASE=postgres://docintel:PASSWORD@db.internal:5432/docintel and
# DOCINTEL_PUBLIC_URL there: in this file (mode 0640), the password stays out of ps and the journal.
EnvironmentFile=-${o.envFile}
Environment=DOCINTEL_DATA=${o.dataDir}
Environment=DOCINTEL_CACHE_DIR=/var/cache/docintel
ExecStart=${o.exec} serve
Restart=on-failure
RestartSec=2
KillSignal=SIGTERM
TimeoutStopSec=30
StateDirectory=docintel
StateDirectoryMode=0700
CacheDirectory=docintel
LimitNOFILE=65536

# Hardening. The native cache (sharp's libvips) is unpacked under /var/cache/docintel and loaded
# from there, so that directory must allow execution (no noexec).
# LibreOffice, ffmpeg, poppler, tesseract and heif-convert run under bubblewrap (no network, only
# their job's files). bwrap needs an unprivileged user namespace and mounts a fresh /proc in it,
# which the kernel refuses while parts of /proc are covered: so no RestrictNamespaces,
# ProtectKernelTunables, ProtectKernelLogs or ProcSubset=pid here (the service runs unprivileged,
# so /proc/sys and /proc/kmsg are closed to it anyway). "docintel doctor" and the start-up log
# say whether isolation is on.
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
PrivateTmp=true
PrivateDevices=true
ProtectKernelModules=true
ProtectControlGroups=true
ProtectClock=true
ProtectHostname=true
RestrictSUIDSGID=true
RestrictRealtime=true
LockPersonality=true
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
ReadWritePaths=${o.dataDir} /var/cache/docintel
CapabilityBoundingSet=
AmbientCapabilities=

[Install]
WantedBy=multi-user.target
`;
}
