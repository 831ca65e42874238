/**
 * The Central Bank's own XML-DSig signer, run as it is: `XMLSigner.java` of its example DICT client
 * (vendor/bacen-pix-dict-quickstart, unmodified) beside a small harness (tools/dict-test-server/quickstart-signer/),
 * built once with Maven into the git-ignored `.cache/dict-quickstart-signer/`. It signs as the quickstart does, and
 * checks a signature as a Java DICT would (javax.xml.crypto.dsig, secure validation, the certificate's key only), so
 * that pix-keys' adapter (apps/pix-keys/src/dict/dict-xml.ts) is proven against a profile it did not define.
 * Tests only: it needs java 17 and mvn (Maven Central, or `KAFKA_MAVEN_REPO` as `-Dmaven.repo.local`, as offline/kafka does).
 */
import { ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const PROJECT_DIR = join(REPO_ROOT, 'tools', 'dict-test-server', 'quickstart-signer');
const POM = join(PROJECT_DIR, 'pom.xml');
/** What the jar is built from: a newer one of these rebuilds it. */
const SOURCES = [
  POM,
  join(PROJECT_DIR, 'src', 'main', 'java', 'br', 'gov', 'bcb', 'pi', 'dict', 'xml', 'QuickstartHarness.java'),
  join(REPO_ROOT, 'vendor', 'bacen-pix-dict-quickstart', 'XMLSigner.java'),
];
const BUILD_ROOT = join(REPO_ROOT, '.cache', 'dict-quickstart-signer');
const JAR = join(BUILD_ROOT, 'dict-quickstart-signer.jar');
/** A short-lived JVM: fast start-up matters more than peak speed. */
const JAVA_OPTIONS = ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xss1m', '-Xmx128m'];

let built: string | undefined;

const mtime = (file: string) => statSync(file).mtimeMs;

/**
 * The path of the quickstart signer's jar (`java -jar <it> sign|verify ...`), built first if it is missing or older
 * than its pom, its harness or the vendored XMLSigner.java (DICT_QUICKSTART_SIGNER_JAR: that jar, never built). Each build goes to its own folder and the jar is renamed
 * into place, so that parallel test workers never see half a jar.
 */
export function quickstartSigner(): string {
  if (built) return built;
  // A jar built elsewhere (the Compose overlay's test DICT: built on the host by compose:up, mounted).
  const given = process.env.DICT_QUICKSTART_SIGNER_JAR;
  if (given) {
    if (!existsSync(given)) throw new Error(`DICT_QUICKSTART_SIGNER_JAR: no file ${given}`);
    return (built = given);
  }
  const stale = !existsSync(JAR) || SOURCES.some((file) => mtime(file) > mtime(JAR));
  if (stale) {
    const buildDir = join(BUILD_ROOT, `build-${process.pid}`);
    mkdirSync(BUILD_ROOT, { recursive: true });
    const repo = process.env.KAFKA_MAVEN_REPO;
    try {
      execFileSync(
        'mvn',
        [
          '-q',
          '-B',
          '-Dstyle.color=never',
          '-f',
          POM,
          `-Dquickstart.buildDirectory=${buildDir}`,
          ...(repo ? [`-Dmaven.repo.local=${repo}`] : []),
          'package',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 600_000 },
      );
      renameSync(join(buildDir, 'dict-quickstart-signer.jar'), JAR);
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      const output = `${stdout ?? ''}${stderr ?? ''}`.slice(-4000);
      throw new Error(`building the quickstart signer (mvn package -f ${POM}) failed: ${String(error)}\n${output}`);
    } finally {
      rmSync(buildDir, { recursive: true, force: true });
    }
  }
  built = JAR;
  return JAR;
}

/** `xml` signed by the quickstart's XMLSigner with this key (PKCS#8 or PKCS#1 PEM) and certificate (PEM), as it writes it. */
export function signTheQuickstartWay(xml: string, keyPemFile: string, certPemFile: string): string {
  return execFileSync('java', [...JAVA_OPTIONS, '-jar', quickstartSigner(), 'sign', keyPemFile, certPemFile], {
    input: xml,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * Whether the signature of `xml` (a `ds:Signature` child of its root) is valid for this certificate's public key, as
 * javax.xml.crypto.dsig checks it with secure validation: the signature value and every reference. `reason` says
 * what failed (which reference, or the signature value).
 */
export function verifyTheQuickstartWay(xml: string, certPemFile: string): { valid: boolean; reason?: string } {
  let out: string;
  try {
    out = execFileSync('java', [...JAVA_OPTIONS, '-jar', quickstartSigner(), 'verify', certPemFile], {
      input: xml,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { status, stdout, stderr } = error as { status?: number | null; stdout?: string; stderr?: string };
    const line = (stdout ?? '').trim();
    if (status === 1 && line.startsWith('invalid: ')) return { valid: false, reason: line.slice('invalid: '.length) };
    throw new Error(`the quickstart verifier failed (exit ${String(status)}): ${line} ${stderr ?? ''}`.trim());
  }
  if (out.trim() !== 'valid') throw new Error(`the quickstart verifier answered ${JSON.stringify(out)}`);
  return { valid: true };
}

/**
 * The quickstart's signer kept running for a server (the DICT test server): `sign` signs with one key and certificate
 * as XMLSigner does, `verify` checks with the trusted certificate as a Java DICT would; one JVM, documents in order.
 */
export class QuickstartSignerProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, (line: string) => void>();
  private next = 0;
  private failure: Error | undefined;

  constructor(keyPemFile: string, certPemFile: string, trustedCertPemFile: string) {
    this.child = spawn('java', [...JAVA_OPTIONS, '-jar', quickstartSigner(), 'serve', keyPemFile, certPemFile, trustedCertPemFile]);
    let stderr = '';
    this.child.stderr.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString('utf8')}`.slice(-2000)));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const space = line.indexOf(' ');
      const id = Number(line.slice(0, space));
      this.waiting.get(id)?.(line.slice(space + 1));
      this.waiting.delete(id);
    });
    const fail = (failure: Error) => {
      this.failure = failure;
      for (const settle of this.waiting.values()) settle(`error ${failure.message}`);
      this.waiting.clear();
    };
    this.child.on('error', (error) => fail(new Error(`the quickstart signer could not run java: ${error.message}`)));
    this.child.on('exit', (code, signal) => fail(new Error(`the quickstart signer exited (${code ?? signal}): ${stderr.trim()}`)));
  }

  /** `xml` signed by XMLSigner, as the quickstart writes it. */
  async sign(xml: string): Promise<string> {
    const answer = await this.call('sign', xml);
    if (!answer.startsWith('signed ')) throw new Error(`the quickstart signer could not sign: ${answer}`);
    return Buffer.from(answer.slice('signed '.length), 'base64').toString('utf8');
  }

  /** Whether the signature of `xml` is valid for the trusted certificate (reason: what failed). */
  async verify(xml: string): Promise<{ valid: boolean; reason?: string }> {
    const answer = await this.call('verify', xml);
    if (answer === 'valid') return { valid: true };
    if (answer.startsWith('invalid ')) return { valid: false, reason: answer.slice('invalid '.length) };
    throw new Error(`the quickstart verifier failed: ${answer}`);
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  private call(operation: 'sign' | 'verify', xml: string): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${id} ${operation} ${Buffer.from(xml, 'utf8').toString('base64')}\n`);
    });
  }
}
