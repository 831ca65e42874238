package br.gov.bcb.pi.dict.xml;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import javax.xml.XMLConstants;
import javax.xml.crypto.dsig.Reference;
import javax.xml.crypto.dsig.XMLSignature;
import javax.xml.crypto.dsig.XMLSignatureFactory;
import javax.xml.crypto.dsig.dom.DOMValidateContext;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The quickstart's signer (XMLSigner, vendored unmodified) run as the quickstart runs it, on stdin:
 *
 * <pre>
 *   sign &lt;key.pem&gt; &lt;cert.pem&gt;   the document on stdin signed by new XMLSigner(keystore, password).sign(document),
 *                                 as SigningXMLStreamWriter does, to stdout (UTF-8, not indented)
 *   verify &lt;cert.pem&gt;            checks the signature of the document on stdin with javax.xml.crypto.dsig against the
 *                                 certificate's public key, secure validation on; prints "valid" (exit 0) or
 *                                 "invalid: &lt;reason&gt;" (exit 1)
 *   serve &lt;key.pem&gt; &lt;cert.pem&gt; &lt;trusted.pem&gt;
 *                                 the two for a server (the DICT test server), one line per document until stdin ends:
 *                                 "&lt;id&gt; sign|verify &lt;base64 document&gt;" in, "&lt;id&gt; signed &lt;base64&gt;", "&lt;id&gt; valid",
 *                                 "&lt;id&gt; invalid &lt;reason&gt;" or "&lt;id&gt; error &lt;message&gt;" out; it signs with the key and
 *                                 certificate, verifies with the trusted certificate
 * </pre>
 *
 * Exit 2: wrong usage or unreadable input. The key is PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA PRIVATE KEY");
 * it and the certificate go into a temporary PKCS12 keystore of one alias, as the quickstart expects, deleted after.
 */
public final class QuickstartHarness {

    private static final String XMLDSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]+)-----END \\1-----");

    private QuickstartHarness() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("sign")) {
            sign(args[1], args[2]);
        } else if (args.length == 2 && args[0].equals("verify")) {
            System.exit(verify(args[1]));
        } else if (args.length == 4 && args[0].equals("serve")) {
            serve(args[1], args[2], args[3]);
        } else {
            System.err.println("usage: sign <keyPemFile> <certPemFile> < document.xml | verify <certPemFile> < signed.xml");
            System.exit(2);
        }
    }

    /** The parser settings of SigningXMLStreamWriter. */
    private static DocumentBuilderFactory documentBuilderFactory() throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, Boolean.TRUE);
        dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        dbf.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        dbf.setFeature("http://xml.org/sax/features/external-general-entities", false);
        dbf.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        dbf.setXIncludeAware(false);
        dbf.setExpandEntityReferences(false);
        dbf.setNamespaceAware(true);
        return dbf;
    }

    private static Document readStdin() throws Exception {
        return parse(System.in.readAllBytes());
    }

    private static Document parse(byte[] bytes) throws Exception {
        InputSource source = new InputSource(new ByteArrayInputStream(bytes));
        source.setEncoding("UTF-8");
        DocumentBuilder builder = documentBuilderFactory().newDocumentBuilder();
        // Errors are thrown, not also printed to stderr ("[Fatal Error] ...") by the default handler.
        builder.setErrorHandler(new ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {
            }

            @Override
            public void error(SAXParseException e) throws SAXException {
                throw e;
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXException {
                throw e;
            }
        });
        return builder.parse(source);
    }

    private static void sign(String keyPemFile, String certPemFile) throws Exception {
        Document document = readStdin();
        Path keyStoreFile = Files.createTempFile("dict-quickstart-signer-", ".p12");
        try {
            char[] password = keyStore(keyPemFile, certPemFile, keyStoreFile);
            // Exactly as SigningXMLStreamWriter: new XMLSigner(keyStoreFile, keyStorePassword), then sign(document).
            new XMLSigner(keyStoreFile.toString(), new String(password)).sign(document);
        } finally {
            Files.deleteIfExists(keyStoreFile);
        }
        System.out.write(serialize(document));
        System.out.flush();
    }

    /** A PKCS12 keystore of one alias, the key and its certificate, written to `file`; answers its password. */
    private static char[] keyStore(String keyPemFile, String certPemFile, Path file) throws Exception {
        PrivateKey key = privateKey(keyPemFile);
        List<Certificate> chain = certificates(certPemFile);
        char[] password = password();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("signing", key, password, chain.toArray(new Certificate[0]));
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password);
        }
        return password;
    }

    private static byte[] serialize(Document document) throws Exception {
        Transformer transformer = TransformerFactory.newInstance().newTransformer();
        transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        transformer.setOutputProperty(OutputKeys.INDENT, "no");
        transformer.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "no");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        transformer.transform(new DOMSource(document), new StreamResult(out));
        return out.toByteArray();
    }

    private static void serve(String keyPemFile, String certPemFile, String trustedPemFile) throws Exception {
        Path keyStoreFile = Files.createTempFile("dict-quickstart-signer-", ".p12");
        keyStoreFile.toFile().deleteOnExit();
        char[] password = keyStore(keyPemFile, certPemFile, keyStoreFile);
        XMLSigner signer = new XMLSigner(keyStoreFile.toString(), new String(password));
        Files.deleteIfExists(keyStoreFile);
        X509Certificate trusted = (X509Certificate) certificates(trustedPemFile).get(0);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.US_ASCII);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] parts = line.split(" ", 3);
            if (parts.length != 3) continue;
            String id = parts[0];
            try {
                byte[] xml = Base64.getDecoder().decode(parts[2]);
                if (parts[1].equals("sign")) {
                    Document document = parse(xml);
                    signer.sign(document);
                    out.println(id + " signed " + Base64.getEncoder().encodeToString(serialize(document)));
                } else if (parts[1].equals("verify")) {
                    String reason = check(xml, trusted);
                    out.println(reason == null ? id + " valid" : id + " invalid " + reason.replace('\n', ' '));
                } else {
                    out.println(id + " error unknown operation " + parts[1]);
                }
            } catch (Exception e) {
                out.println(id + " error " + String.valueOf(e.getMessage()).replace('\n', ' '));
            }
            out.flush();
        }
    }

    private static int verify(String certPemFile) throws Exception {
        X509Certificate cert = (X509Certificate) certificates(certPemFile).get(0);
        String reason = check(System.in.readAllBytes(), cert);
        if (reason != null) return invalid(reason);
        System.out.println("valid");
        return 0;
    }

    /** Why the signature of the document is not valid for the certificate's public key; null when it is. */
    private static String check(byte[] xml, X509Certificate cert) {
        Document document;
        try {
            document = parse(xml);
        } catch (Exception e) {
            return "not well-formed XML: " + e.getMessage();
        }
        Element root = document.getDocumentElement();
        List<Element> signatures = new ArrayList<>();
        for (Node child = root.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element && XMLDSIG_NS.equals(child.getNamespaceURI()) && "Signature".equals(child.getLocalName())) {
                signatures.add((Element) child);
            }
        }
        if (signatures.size() != 1) {
            return "expected one ds:Signature child of the root, found " + signatures.size();
        }
        // The public key of the certificate given, never a key or certificate from the document.
        DOMValidateContext context = new DOMValidateContext(cert.getPublicKey(), signatures.get(0));
        context.setProperty("org.jcp.xml.dsig.secureValidation", Boolean.TRUE);
        NodeList all = document.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < all.getLength(); i++) {
            Element element = (Element) all.item(i);
            if (element.hasAttributeNS(null, "Id")) context.setIdAttributeNS(element, null, "Id");
        }
        try {
            XMLSignature signature = XMLSignatureFactory.getInstance("DOM").unmarshalXMLSignature(context);
            boolean core = signature.validate(context);
            List<String> failures = new ArrayList<>();
            if (!signature.getSignatureValue().validate(context)) {
                failures.add("the signature value does not verify with the certificate's public key");
            }
            @SuppressWarnings("unchecked")
            List<Reference> references = signature.getSignedInfo().getReferences();
            for (Reference reference : references) {
                if (!reference.validate(context)) {
                    failures.add("reference URI=\"" + reference.getURI() + "\" digest mismatch");
                }
            }
            if (core && failures.isEmpty()) return null;
            return failures.isEmpty() ? "core validation failed" : String.join("; ", failures);
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static int invalid(String reason) {
        System.out.println("invalid: " + reason.replace('\n', ' '));
        return 1;
    }

    private static char[] password() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).toCharArray();
    }

    private static List<Certificate> certificates(String file) throws Exception {
        try (InputStream in = new FileInputStream(file)) {
            List<Certificate> certs = new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
            if (certs.isEmpty()) throw new IOException("no certificate in " + file);
            return certs;
        }
    }

    private static PrivateKey privateKey(String file) throws Exception {
        Matcher pem = PEM.matcher(Files.readString(Path.of(file), StandardCharsets.US_ASCII));
        if (!pem.find()) throw new IOException("no PEM block in " + file);
        byte[] der = Base64.getMimeDecoder().decode(pem.group(2).trim());
        switch (pem.group(1)) {
            case "PRIVATE KEY":
                break;
            case "RSA PRIVATE KEY":
                der = pkcs1ToPkcs8(der);
                break;
            default:
                throw new IOException(file + " holds " + pem.group(1) + ", not PRIVATE KEY (PKCS#8) or RSA PRIVATE KEY (PKCS#1)");
        }
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /** PrivateKeyInfo { version 0, AlgorithmIdentifier rsaEncryption NULL, OCTET STRING pkcs1 }. */
    private static byte[] pkcs1ToPkcs8(byte[] pkcs1) {
        byte[] version = {0x02, 0x01, 0x00};
        byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
        byte[] key = der(0x04, pkcs1);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(version);
        body.writeBytes(algorithm);
        body.writeBytes(key);
        return der(0x30, body.toByteArray());
    }

    private static byte[] der(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) out.write(length >>> (8 * i));
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
