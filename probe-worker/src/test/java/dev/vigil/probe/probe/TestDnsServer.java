package dev.vigil.probe.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.MXRecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

/**
 * A tiny authoritative UDP DNS responder on loopback, built with dnsjava's {@link Message} API, for the zone
 * {@code vigil.test}: A, AAAA, MX, TXT, NS and CNAME data, NXDOMAIN for unknown names, SERVFAIL for
 * {@code broken.vigil.test} and silence for {@code silent.vigil.test}.
 */
final class TestDnsServer implements AutoCloseable {
    final AtomicInteger queries = new AtomicInteger();
    final List<String> questions = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, List<Record>> zone = new ConcurrentHashMap<>();
    private final DatagramSocket socket;
    private final Thread thread;

    TestDnsServer() {
        try {
            socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            Name api = name("api.vigil.test.");
            add(new ARecord(api, DClass.IN, 60, InetAddress.getByName("93.184.216.34")));
            add(new ARecord(api, DClass.IN, 60, InetAddress.getByName("93.184.216.35")));
            add(new AAAARecord(
                    name("v6.vigil.test."), DClass.IN, 60, InetAddress.getByName("2606:4700:0:0:0:0:0:1111")));
            Name root = name("vigil.test.");
            add(new MXRecord(root, DClass.IN, 60, 10, name("mx1.vigil.test.")));
            add(new MXRecord(root, DClass.IN, 60, 20, name("mx2.vigil.test.")));
            add(new TXTRecord(root, DClass.IN, 60, List.of("v=spf1 ", "include:_spf.vigil.test -all")));
            add(new NSRecord(root, DClass.IN, 60, name("ns1.vigil.test.")));
            add(new CNAMERecord(name("www.vigil.test."), DClass.IN, 60, name("api.vigil.test.")));
            add(new ARecord(name("internal.vigil.test."), DClass.IN, 60, InetAddress.getByName("10.1.2.3")));
            add(new ARecord(name("internal.vigil.test."), DClass.IN, 60, InetAddress.getByName("93.184.216.36")));
            Name many = name("many.vigil.test.");
            for (int i = 1; i <= 20; i++) {
                add(new ARecord(many, DClass.IN, 60, InetAddress.getByName("93.184.217." + i)));
            }
            add(new TXTRecord(name("long.vigil.test."), DClass.IN, 60, List.of("a".repeat(200), "b".repeat(200))));
            add(new TXTRecord(
                    name("_dmarc.vigil.test."),
                    DClass.IN,
                    60,
                    "v=DMARC1; p=reject; rua=mailto:dmarc@vigil-example.com"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::serve, "test-dns-server");
        thread.setDaemon(true);
        thread.start();
    }

    private static Name name(String s) {
        try {
            return Name.fromString(s);
        } catch (org.xbill.DNS.TextParseException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private void add(Record r) {
        zone.computeIfAbsent(r.getName().toString().toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>())
                .add(r);
    }

    private void serve() {
        byte[] buf = new byte[4096];
        while (!socket.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                socket.receive(p);
                queries.incrementAndGet();
                Message query = new Message(java.util.Arrays.copyOf(p.getData(), p.getLength()));
                Record q = query.getQuestion();
                String qname = q.getName().toString().toLowerCase(java.util.Locale.ROOT);
                questions.add(Type.string(q.getType()) + " " + qname);
                if (qname.equals("silent.vigil.test.")) {
                    continue;
                }
                Message answer = new Message(query.getHeader().getID());
                answer.getHeader().setFlag(Flags.QR);
                answer.getHeader().setFlag(Flags.AA);
                if (query.getHeader().getFlag(Flags.RD)) {
                    answer.getHeader().setFlag(Flags.RD);
                }
                answer.addRecord(q, Section.QUESTION);
                List<Record> records = zone.get(qname);
                if (qname.equals("broken.vigil.test.")) {
                    answer.getHeader().setRcode(Rcode.SERVFAIL);
                } else if (records == null
                        && !Set.of("vigil.test.", "empty.vigil.test.").contains(qname)) {
                    answer.getHeader().setRcode(Rcode.NXDOMAIN);
                } else if (records != null) {
                    for (Record r : records) {
                        if (r.getType() == q.getType() || r.getType() == Type.CNAME) {
                            answer.addRecord(r, Section.ANSWER);
                            if (r instanceof CNAMERecord c && q.getType() != Type.CNAME) {
                                List<Record> target =
                                        zone.get(c.getTarget().toString().toLowerCase(java.util.Locale.ROOT));
                                if (target != null) {
                                    target.stream()
                                            .filter(t -> t.getType() == q.getType())
                                            .forEach(t -> answer.addRecord(t, Section.ANSWER));
                                }
                            }
                        }
                    }
                }
                byte[] wire = answer.toWire(512);
                socket.send(new DatagramPacket(wire, wire.length, p.getSocketAddress()));
            } catch (IOException e) {
                if (socket.isClosed()) {
                    return;
                }
            }
        }
    }

    int port() {
        return socket.getLocalPort();
    }

    /** {@code 127.0.0.1:<port>}, as a monitor's {@code dns.resolver}. */
    String resolver() {
        return "127.0.0.1:" + port();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port());
    }

    @Override
    public void close() {
        socket.close();
    }
}
