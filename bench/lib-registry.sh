# Sourced by bench/oci*.sh after lib.sh: makes the scratch $DIR and starts the real CNCF distribution registry
# (docker-registry) on a free loopback port with its storage in $DIR (HOST, REG; stopped on exit),
# with XDG_CACHE_HOME and DOCKER_CONFIG in $DIR too. SK runs skillctl.
scratch
SK="$NODE $PWD/bin/skillctl.js"
PORT=$("$NODE" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
HOST=127.0.0.1:$PORT
cat > "$DIR/config.yml" <<YAML
version: 0.1
log: {level: error, accesslog: {disabled: true}}
storage: {filesystem: {rootdirectory: $DIR/storage}}
http: {addr: $HOST}
YAML
docker-registry serve "$DIR/config.yml" 2>/dev/null & REG=$!
trap 'kill $REG 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 100); do (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
export XDG_CACHE_HOME=$DIR/cache DOCKER_CONFIG=$DIR/docker
mkdir -p "$DIR/docker"
