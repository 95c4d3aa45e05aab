package dev.vigil.kit.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Per-connection edge guard, placed right after the HTTP codec so it sees decoded request heads and body chunks
 * before Reactor Netty does: the request-head deadline, the Host allow-list and the server's body budget. A request
 * it refuses never reaches a handler. Its {@link #firstBytes} companion sits before the codec and starts the head
 * deadline when the first byte of a request arrives: a connection that sends nothing is closed silently (a fresh
 * one after the head timeout, an idle keep-alive one by Reactor Netty's idle timeout), never answered 408, so a
 * pooled client is not handed an answer to a request it has not sent yet.
 */
final class GuardHandler extends ChannelDuplexHandler {
    /** Before the codec: notices raw bytes while no request is open. */
    final class FirstBytes extends io.netty.channel.ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            // bytes while a body is still arriving (also one whose request was already answered) are not a new head
            if (open == 0
                    && !inHead
                    && !bodyOpen
                    && !refusing
                    && msg instanceof io.netty.buffer.ByteBuf b
                    && b.isReadable()) {
                inHead = true;
                armHeadDeadline(self); // answers must go out through the codec, so from the guard's own position
            }
            super.channelRead(ctx, msg);
        }
    }

    final FirstBytes firstBytes = new FirstBytes();
    private boolean inHead;
    /** A request head was read and its body's last chunk not yet. */
    private boolean bodyOpen;

    private ChannelHandlerContext self;
    private final ServerLimits limits;
    private final BodyBudget budget;
    private final ServerGuard.Refusals refusals;
    private ScheduledFuture<?> headDeadline;
    /** Requests read whose answer has not been written completely (HTTP/1.1 pipelining keeps this above 1). */
    private int open;

    private long held;
    private boolean refusing;

    GuardHandler(ServerLimits limits, BodyBudget budget, ServerGuard.Refusals refusals) {
        this.limits = limits;
        this.budget = budget;
        this.refusals = refusals;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        self = ctx;
        if (ctx.channel().isActive()) {
            armSilentClose(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        armSilentClose(ctx);
        super.channelActive(ctx);
    }

    /** A fresh connection that never sends a byte is closed after the head timeout, without an answer. */
    private void armSilentClose(ChannelHandlerContext ctx) {
        cancelHeadDeadline();
        headDeadline = ctx.executor()
                .schedule(
                        () -> {
                            if (open == 0 && !inHead && ctx.channel().isActive()) {
                                refusals.count("idle_connection");
                                ctx.close();
                            }
                        },
                        limits.headerTimeout().toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (refusing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest req) {
            cancelHeadDeadline();
            inHead = false;
            String host = req.headers().get(HttpHeaderNames.HOST);
            if (!limits.hostAllowed(host)) {
                refuse(
                        ctx,
                        msg,
                        HttpResponseStatus.MISDIRECTED_REQUEST,
                        "host-not-allowed",
                        "Host not allowed",
                        "this server answers only requests addressed to "
                                + String.join(", ", new java.util.TreeSet<>(limits.allowedHosts())),
                        "host");
                return;
            }
            long declared = HttpUtil.getContentLength(req, -1L);
            if (declared > budget.limit()) {
                refuse(
                        ctx,
                        msg,
                        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                        "payload-too-large",
                        "Payload too large",
                        "the request body may be at most " + budget.limit() + " bytes",
                        "budget");
                return;
            }
            if (declared > 0 && !budget.fits(declared)) {
                refuse(
                        ctx,
                        msg,
                        HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "busy",
                        "Server busy",
                        "the server holds as many request bodies as it may; retry shortly",
                        "budget");
                return;
            }
            open++;
            bodyOpen = !(msg instanceof LastHttpContent);
        } else if (msg instanceof LastHttpContent) {
            bodyOpen = false;
        }
        if (msg instanceof HttpContent content) {
            int n = content.content().readableBytes();
            // Only bodies of requests not yet answered count: the rest of a body answered early (a 401 before its
            // bytes) is being discarded, and nothing would ever give its bytes back.
            if (n > 0 && open > 0) {
                if (!budget.tryTake(n)) {
                    refusals.count("budget");
                    refusing = true;
                    ReferenceCountUtil.release(msg);
                    ctx.close();
                    return;
                }
                held += n;
            }
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        // a 100 Continue (or any 1xx) is not the answer: the request goes on
        boolean informational = msg instanceof io.netty.handler.codec.http.HttpResponse r
                && r.status().codeClass() == io.netty.handler.codec.http.HttpStatusClass.INFORMATIONAL;
        if (msg instanceof LastHttpContent && !informational) {
            promise = promise.unvoid();
            promise.addListener(f -> answered(ctx));
        }
        super.write(ctx, msg, promise);
    }

    private void answered(ChannelHandlerContext ctx) {
        if (open > 0) {
            open--;
        }
        if (open == 0) {
            releaseHeld();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelHeadDeadline();
        releaseHeld();
        super.channelInactive(ctx);
    }

    private void releaseHeld() {
        budget.give(held);
        held = 0;
    }

    private void armHeadDeadline(ChannelHandlerContext ctx) {
        cancelHeadDeadline();
        headDeadline = ctx.executor()
                .schedule(
                        () -> {
                            if (inHead && ctx.channel().isActive() && !refusing) {
                                refusing = true;
                                refusals.count("header_timeout");
                                respond(
                                        ctx,
                                        HttpResponseStatus.REQUEST_TIMEOUT,
                                        "request-timeout",
                                        "Request timeout",
                                        "the request head was not received within "
                                                + limits.headerTimeout().toSeconds() + " s");
                            }
                        },
                        limits.headerTimeout().toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    private void cancelHeadDeadline() {
        if (headDeadline != null) {
            headDeadline.cancel(false);
            headDeadline = null;
        }
    }

    private void refuse(
            ChannelHandlerContext ctx,
            Object msg,
            HttpResponseStatus status,
            String type,
            String title,
            String detail,
            String reason) {
        ReferenceCountUtil.release(msg);
        refusing = true;
        refusals.count(reason);
        respond(ctx, status, type, title, detail);
    }

    /** Writes a problem answer and closes: the rest of a refused request is never read. */
    private static void respond(
            ChannelHandlerContext ctx, HttpResponseStatus status, String type, String title, String detail) {
        byte[] body = new Problem(status.code(), type, title, detail, null).bytes();
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        res.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, Problem.CONTENT_TYPE)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (status.code() == 503) {
            res.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
        }
        ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
    }
}
