<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Labels</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>PENDING</source>
        <translation>待发送</translation>
    </message>
    <message>
        <source>SENDING</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>SENT</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>DEAD</source>
        <translation>死亡</translation>
    </message>
    <message>
        <source>NEW</source>
        <translation>新</translation>
    </message>
    <message>
        <source>REPLAYING</source>
        <translation>重放中</translation>
    </message>
    <message>
        <source>REPLAYED</source>
        <translation>已重放</translation>
    </message>
    <message>
        <source>DISCARDED</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <source>deterministic</source>
        <translation>确定性</translation>
    </message>
    <message>
        <source>transient</source>
        <translation>暂时性</translation>
    </message>
    <message>
        <source>unknown outcome</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n 字节</numerusform>
        </translation>
    </message>
    <message>
        <source>permanent</source>
        <translation>永久性</translation>
    </message>
    <message>
        <source>retries exhausted</source>
        <translation>重试次数已用尽</translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Outbox Console: live health and audited operations for a transactional outbox.</source>
        <translation>Outbox 控制台：事务性发件箱的实时健康状况与可审计的运维操作。</translation>
    </message>
    <message>
        <source>Database URL (or OUTBOX_DB_URL; password from the URL, OUTBOX_DB_PASSWORD or a prompt).</source>
        <translation>数据库 URL（或 OUTBOX_DB_URL；密码来自 URL、OUTBOX_DB_PASSWORD 或提示输入）。</translation>
    </message>
    <message>
        <source>Start `outboxctl demo` as a child and open its database.</source>
        <translation>以子进程启动 `outboxctl demo` 并打开其数据库。</translation>
    </message>
    <message>
        <source>Open the full-screen wallboard.</source>
        <translation>打开全屏大屏模式。</translation>
    </message>
    <message>
        <source>Demo</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>Prefix of the outbox tables (or OUTBOX_DB_TABLE_PREFIX).</source>
        <translation>outbox 表的前缀（或 OUTBOX_DB_TABLE_PREFIX）。</translation>
    </message>
    <message>
        <source>INI configuration file: [database] url, table_prefix, password.</source>
        <translation>INI 配置文件：[database] url、table_prefix、password。</translation>
    </message>
    <message>
        <source>Fleet file: show its members on the Fleet page (or OUTBOX_FLEET, [general] fleet); double-click one to open it.</source>
        <translation>集群文件：在“集群”页面显示其成员（或 OUTBOX_FLEET、[general] fleet）；双击成员即可打开。</translation>
    </message>
</context>
<context>
    <name>outbox::Database</name>
    <message>
        <source>cannot connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ActionDialog</name>
    <message>
        <source>Sample of the rows that will change:</source>
        <translation>将被更改的行（样本）：</translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation>原因（写入审计日志）</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Reading the preview (how many rows, a sample)…</source>
        <translation>正在读取预览（行数与样本）…</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>empty: each dead letter&apos;s original topic</source>
        <translation>留空：各死信的原始主题</translation>
    </message>
    <message>
        <source>Replay to topic:</source>
        <translation>重放到主题：</translation>
    </message>
    <message numerus="yes">
        <source>%n event(s) go back to PENDING and the relay sends them again; consumers must be idempotent (they may have received some of them already).</source>
        <translation>
            <numerusform>%n 个事件回到 PENDING，中继会再次发送；消费者必须幂等（其中一些可能已被接收过）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s) become DEAD: never sent, kept in the outbox for audit (a later requeue can still send them).</source>
        <translation>
            <numerusform>%n 个事件变为 DEAD：不再发送，保留在发件箱中供审计（之后仍可重新入队发送）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) go to REPLAYING and a running relay produces them again to their original topic; its consumers receive them again and must be idempotent.</source>
        <translation>
            <numerusform>%n 条死信进入 REPLAYING，运行中的中继会将其重新发送到原始主题；该主题的消费者会再次收到它们，必须幂等。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) go to REPLAYING and a running relay produces them to the topic &quot;%1&quot;; its consumers receive them and must be idempotent.</source>
        <translation>
            <numerusform>%n 条死信进入 REPLAYING，运行中的中继会将其发送到主题“%1”；该主题的消费者会收到它们，必须幂等。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letter(s) are marked DISCARDED: never processed or replayed again, kept for audit.</source>
        <translation>
            <numerusform>%n 条死信被标记为 DISCARDED：不再处理或重放，保留供审计。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ActionResultDialog</name>
    <message>
        <source>%1: result</source>
        <translation>%1：结果</translation>
    </message>
    <message>
        <source>Done:</source>
        <translation>已完成：</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) changed</source>
        <translation>
            <numerusform>已更改 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Conflicts:</source>
        <translation>冲突：</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) changed state meanwhile and were left alone</source>
        <translation>
            <numerusform>%n 行在此期间状态已变，保持不变</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Cancelled:</source>
        <translation>已取消：</translation>
    </message>
    <message>
        <source>yes: every finished chunk is committed and audited, the rest is untouched</source>
        <translation>是：每个已完成的批次均已提交并审计，其余未改动</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Chunks:</source>
        <translation>批次：</translation>
    </message>
    <message numerus="yes">
        <source>%n audited transaction(s)</source>
        <translation>
            <numerusform>%n 个已审计的事务</numerusform>
        </translation>
    </message>
    <message>
        <source>Audit rows:</source>
        <translation>审计记录：</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>#%1: %2</source>
        <translation>#%1：%2</translation>
    </message>
    <message>
        <source>Audit id</source>
        <translation>审计 ID</translation>
    </message>
    <message>
        <source>At</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Affected</source>
        <translation>影响行数</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Show audit rows</source>
        <translation>显示审计记录</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Reading the audit rows…</source>
        <translation>正在读取审计记录…</translation>
    </message>
    <message numerus="yes">
        <source>%n audit row(s) of this run:</source>
        <translation>
            <numerusform>本次运行的 %n 条审计记录：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ActionRunner</name>
    <message>
        <source>Requeue events</source>
        <translation>重新入队事件</translation>
    </message>
    <message>
        <source>Mark events DEAD</source>
        <translation>将事件标记为 DEAD</translation>
    </message>
    <message>
        <source>Replay dead letters</source>
        <translation>重放死信</translation>
    </message>
    <message>
        <source>Discard dead letters</source>
        <translation>丢弃死信</translation>
    </message>
    <message numerus="yes">
        <source>Nothing to change: none of the targeted rows is in a state this action accepts (%n conflict(s)).</source>
        <translation>
            <numerusform>无需更改：目标行均不处于此操作接受的状态（%n 个冲突）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 row(s) will change.</source>
        <translation>%1：将更改 %2 行。</translation>
    </message>
    <message numerus="yes">
        <source>%n targeted row(s) are in another state and will be left alone.</source>
        <translation>
            <numerusform>%n 个目标行处于其他状态，将保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 row(s) match but are not eligible.</source>
        <translation>%1 行 %2 状态的记录匹配但不符合条件。</translation>
    </message>
    <message>
        <source>This is a PRODUCTION connection.</source>
        <translation>这是生产环境连接。</translation>
    </message>
    <message>
        <source>Applying in chunks of %1…</source>
        <translation>正在按每批 %1 行执行…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelled; nothing changed.</source>
        <translation>已取消，未做任何更改。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n row(s) changed</source>
        <translation>
            <numerusform>%1：已更改 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n conflict(s) (state changed meanwhile)</source>
        <translation>
            <numerusform>%n 个冲突（期间状态已变化）</numerusform>
        </translation>
    </message>
    <message>
        <source>narrow the filter (status, type, aggregate, error or time) and press Apply</source>
        <translation>请缩小筛选范围（状态、类型、聚合、错误或时间）并点击“应用”</translation>
    </message>
    <message>
        <source>select the rows to act on</source>
        <translation>请选择要操作的行</translation>
    </message>
    <message>
        <source>select a failure group</source>
        <translation>请选择一个失败分组</translation>
    </message>
    <message>
        <source>type a reason in the dialog</source>
        <translation>请在对话框中填写原因</translation>
    </message>
    <message>
        <source>set an actor name for this profile</source>
        <translation>请为此连接配置设置操作人名称</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>It runs in chunks of %1 rows, each its own audited transaction; Cancel stops it between chunks.</source>
        <translation>操作按每批 %1 行执行，每批都是独立且记入审计的事务；“取消”会在两批之间停止。</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n row(s); every finished chunk is committed and audited, the rest is untouched.</source>
        <translation>
            <numerusform>已在处理 %n 行后取消；已完成的批次均已提交并记入审计，其余行保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <source>Applying in chunks of %1: %2 of %3 row(s) done, chunk %4…</source>
        <translation>正在按每批 %1 行执行：已完成 %2 / %3 行，第 %4 批…</translation>
    </message>
    <message numerus="yes">
        <source>in %n audited chunk(s)</source>
        <translation>
            <numerusform>（分 %n 个记入审计的批次）</numerusform>
        </translation>
    </message>
    <message>
        <source>Disconnected; a run under way stops before its next chunk (every finished chunk is committed and audited).</source>
        <translation>已断开连接；进行中的操作会在下一批之前停止（已完成的批次均已提交并记入审计）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::AuditPage</name>
    <message>
        <source>action, e.g. events.requeue</source>
        <translation>操作，例如 events.requeue</translation>
    </message>
    <message>
        <source>actor</source>
        <translation>操作人</translation>
    </message>
    <message>
        <source>since</source>
        <translation>起始于</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Load more</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作人</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Affected</source>
        <translation>影响行数</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Target ids</source>
        <translation>目标编号</translation>
    </message>
    <message>
        <source>Export audit log</source>
        <translation>导出审计日志</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n audit entrie(s) to %1</source>
        <translation>
            <numerusform>已导出 %n 条审计记录到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Select an entry to read all of it.</source>
        <translation>选择一条记录以查看全文。</translation>
    </message>
    <message numerus="yes">
        <source>%n entrie(s), as of %1</source>
        <translation>
            <numerusform>%n 条记录，截至 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>No audit entries match: nothing was done through the console or outboxctl yet, or the filter excludes it.</source>
        <translation>没有匹配的审计记录：尚未通过控制台或 outboxctl 执行任何操作，或筛选条件排除了它们。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::BlockedAggregatesPage</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Requeue blocking event…</source>
        <translation>重新入队阻塞事件…</translation>
    </message>
    <message>
        <source>The blocking event is sent again first; the waiting events follow in order.</source>
        <translation>阻塞事件先被再次发送；等待的事件随后按顺序发送。</translation>
    </message>
    <message>
        <source>Mark blocking event DEAD…</source>
        <translation>将阻塞事件标记为 DEAD…</translation>
    </message>
    <message>
        <source>The blocking event is never sent; the waiting events are sent without it.</source>
        <translation>阻塞事件不再发送；等待的事件在没有它的情况下发送。</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>聚合</translation>
    </message>
    <message>
        <source>Blocking event</source>
        <translation>阻塞事件</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Blocked since</source>
        <translation>阻塞起始时间</translation>
    </message>
    <message>
        <source>Waiting events</source>
        <translation>等待的事件</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>No blocked aggregates: no FAILED event holds back a later PENDING event of its aggregate.</source>
        <translation>没有被阻塞的聚合：没有 FAILED 事件阻挡其聚合中后续的 PENDING 事件。</translation>
    </message>
    <message numerus="yes">
        <source>%n blocked aggregate(s), as of %1</source>
        <translation>
            <numerusform>%n 个被阻塞的聚合，截至 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Select one or more blocked aggregates first.</source>
        <translation>请先选择一个或多个被阻塞的聚合。</translation>
    </message>
    <message numerus="yes">
        <source>The blocking event(s) of %n selected aggregate(s)</source>
        <translation>
            <numerusform>所选 %n 个聚合的阻塞事件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ConnectDialog</name>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>(new connection)</source>
        <translation>（新连接）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>green (development)</source>
        <translation>绿色（开发）</translation>
    </message>
    <message>
        <source>yellow (staging)</source>
        <translation>黄色（预发布）</translation>
    </message>
    <message>
        <source>red (production: typed confirmation for every action)</source>
        <translation>红色（生产：每个操作都需输入确认）</translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <source>Colour tag:</source>
        <translation>颜色标签：</translation>
    </message>
    <message>
        <source>Passwords are never stored: they come from OUTBOX_DB_PASSWORD or are asked for when connecting.</source>
        <translation>密码从不保存：来自 OUTBOX_DB_PASSWORD，或在连接时询问。</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>Table prefix:</source>
        <translation>表前缀：</translation>
    </message>
    <message>
        <source>none (tables outbox_events, …)</source>
        <translation>无（表 outbox_events 等）</translation>
    </message>
    <message>
        <source>(recent URLs)</source>
        <translation>（最近的 URL）</translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation>最近：</translation>
    </message>
    <message>
        <source>Enter the database URL, e.g. postgresql://user@host:5432/db.</source>
        <translation>请输入数据库 URL，例如 postgresql://user@host:5432/db。</translation>
    </message>
    <message>
        <source>Not a database URL: %1</source>
        <translation>不是有效的数据库 URL：%1</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Cannot connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ConsumersPage</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Kafka bootstrap for lag, e.g. localhost:9092</source>
        <translation>用于计算滞后的 Kafka 引导服务器地址，例如 localhost:9092</translation>
    </message>
    <message>
        <source>Lag from:</source>
        <translation>滞后来源：</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Processed</source>
        <translation>已处理</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>Dead letters NEW</source>
        <translation>新死信</translation>
    </message>
    <message>
        <source>Unconsumed</source>
        <translation>未消费</translation>
    </message>
    <message>
        <source>Last processed</source>
        <translation>最近处理</translation>
    </message>
    <message>
        <source>Lag</source>
        <translation>滞后</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>Committed</source>
        <translation>已提交偏移量</translation>
    </message>
    <message>
        <source>High watermark</source>
        <translation>高水位</translation>
    </message>
    <message>
        <source>Processed per minute</source>
        <translation>每分钟处理数</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>收件箱</translation>
    </message>
    <message>
        <source>consumer (exact)</source>
        <translation>消费者（精确匹配）</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <source>event id (exact)</source>
        <translation>事件 ID（精确匹配）</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Load more</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Event id</source>
        <translation>事件 ID</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>聚合</translation>
    </message>
    <message>
        <source>At</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Reading the consumers…</source>
        <translation>正在读取消费者…</translation>
    </message>
    <message>
        <source>Cannot read the consumers: %1</source>
        <translation>无法读取消费者：%1</translation>
    </message>
    <message>
        <source>No consumer has written to the inbox or the dead letters yet.</source>
        <translation>还没有消费者写入收件箱或死信。</translation>
    </message>
    <message numerus="yes">
        <source>%n consumer(s), as of %1</source>
        <translation>
            <numerusform>%n 个消费者，截至 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>lag unavailable: %1</source>
        <translation>滞后不可用：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>No inbox rows match the filter.</source>
        <translation>没有符合筛选条件的收件箱记录。</translation>
    </message>
    <message>
        <source>Cancel the count</source>
        <translation>取消计数</translation>
    </message>
    <message>
        <source>Trace (traceparent)</source>
        <translation>追踪（traceparent）</translation>
    </message>
    <message>
        <source>%1 — counting unconsumed events…</source>
        <translation>%1 — 正在统计未消费的事件…</translation>
    </message>
    <message>
        <source>%1 — unconsumed events not counted: %2</source>
        <translation>%1 — 未统计未消费的事件：%2</translation>
    </message>
    <message>
        <source>counting unconsumed events…</source>
        <translation>正在统计未消费的事件…</translation>
    </message>
    <message>
        <source>count of unconsumed events cancelled</source>
        <translation>已取消未消费事件的统计</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::DeadLetterEditDialog</name>
    <message>
        <source>Edit dead letter #%1 before replay</source>
        <translation>重放前编辑死信 #%1</translation>
    </message>
    <message>
        <source>The edited message replaces the payload and headers that a replay sends; the message as it came is kept, and the audit log records both.</source>
        <translation>编辑后的消息替换重放时发送的载荷和消息头；原始消息会被保留，审计日志记录两者。</translation>
    </message>
    <message numerus="yes">
        <source>The payload is binary (%n bytes) and cannot be edited here; use outboxctl dlq edit ID --payload-file FILE.</source>
        <translation>
            <numerusform>载荷为二进制（%n 字节），无法在此编辑；请使用 outboxctl dlq edit ID --payload-file FILE。</numerusform>
        </translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation>原因（写入审计日志）</translation>
    </message>
    <message>
        <source>Payload (JSON):</source>
        <translation>载荷（JSON）：</translation>
    </message>
    <message>
        <source>Headers (JSON object of strings):</source>
        <translation>消息头（值为字符串的 JSON 对象）：</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Save edit</source>
        <translation>保存编辑</translation>
    </message>
    <message>
        <source>The headers must be a JSON object.</source>
        <translation>消息头必须是 JSON 对象。</translation>
    </message>
    <message>
        <source>Header &quot;%1&quot; must be a string.</source>
        <translation>消息头“%1”必须是字符串。</translation>
    </message>
    <message>
        <source>Nothing changed yet.</source>
        <translation>尚未做任何更改。</translation>
    </message>
    <message>
        <source>A reason is required.</source>
        <translation>必须填写原因。</translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm (production profile).</source>
        <translation>输入“%1”以确认（生产环境配置）。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>The payload is not valid JSON: %1 (line %2, column %3).</source>
        <translation>载荷不是有效的 JSON：%1（第 %2 行，第 %3 列）。</translation>
    </message>
    <message>
        <source>The headers are not valid JSON: %1 (line %2, column %3).</source>
        <translation>消息头不是有效的 JSON：%1（第 %2 行，第 %3 列）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::DeadLetterGroupsDialog</name>
    <message>
        <source>Dead-letter failure groups</source>
        <translation>死信失败分组</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Replay group…</source>
        <translation>重放分组…</translation>
    </message>
    <message>
        <source>Discard group…</source>
        <translation>丢弃分组…</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>No NEW dead letters — nothing to group.</source>
        <translation>没有 NEW 死信——无可分组。</translation>
    </message>
    <message>
        <source>Select a group first.</source>
        <translation>请先选择一个分组。</translation>
    </message>
    <message>
        <source>Every NEW dead letter of %1 failing with &quot;%2&quot; (%3)</source>
        <translation>%1 中因“%2”（%3）失败的所有 NEW 死信</translation>
    </message>
    <message>
        <source>Edit group…</source>
        <translation>编辑分组…</translation>
    </message>
    <message>
        <source>Show letters</source>
        <translation>显示死信</translation>
    </message>
    <message>
        <source>List this group&apos;s dead letters on the Dead letters page (also: double-click).</source>
        <translation>在“死信”页面列出该分组的死信（也可双击）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::DeadLetterText</name>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message numerus="yes">
        <source>(binary, %n bytes)</source>
        <translation>
            <numerusform>（二进制，%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Edited %n time(s), last by %1 at %2. Changes from the message as it came (- original, + edited; a replay sends the edited one):</source>
        <translation>
            <numerusform>已编辑 %n 次，最近一次由 %1 于 %2 编辑。与原始消息相比的更改（- 原始，+ 编辑后；重放发送编辑后的消息）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Payload:</source>
        <translation>载荷：</translation>
    </message>
    <message>
        <source>Headers:</source>
        <translation>消息头：</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::DeadLettersPage</name>
    <message>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <source>consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Load more</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <source>Selected dead letters</source>
        <translation>选中的死信</translation>
    </message>
    <message>
        <source>Every dead letter of the filter</source>
        <translation>筛选结果中的全部死信</translation>
    </message>
    <message>
        <source>Replay…</source>
        <translation>重放…</translation>
    </message>
    <message>
        <source>Discard…</source>
        <translation>丢弃…</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Event id</source>
        <translation>事件 ID</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Last failed</source>
        <translation>最近失败</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Select one or more dead letters first.</source>
        <translation>请先选择一条或多条死信。</translation>
    </message>
    <message numerus="yes">
        <source>%n selected dead letter(s)</source>
        <translation>
            <numerusform>%n 条选中的死信</numerusform>
        </translation>
    </message>
    <message>
        <source>status %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <source>consumer %1</source>
        <translation>消费者 %1</translation>
    </message>
    <message>
        <source>Every dead letter of the applied filter (%1)</source>
        <translation>已应用筛选的全部死信（%1）</translation>
    </message>
    <message>
        <source>no filter</source>
        <translation>无筛选</translation>
    </message>
    <message>
        <source>— the filter boxes have changes that are not applied and are not used; press Apply to act on them</source>
        <translation>—— 筛选框中有尚未应用的修改，不会被使用；如需按其操作，请先点击“应用”</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>dead letters</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>%1 dead letters</source>
        <translation>%1 死信</translation>
    </message>
    <message>
        <source>%1 shown, as of %2</source>
        <translation>显示 %1 条，截至 %2</translation>
    </message>
    <message>
        <source>%1 %2 in all</source>
        <translation>共 %1 条%2</translation>
    </message>
    <message numerus="yes">
        <source>%n new — show</source>
        <translation>
            <numerusform>%n 条新增 — 显示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n fewer — show</source>
        <translation>
            <numerusform>减少 %n 条 — 显示</numerusform>
        </translation>
    </message>
    <message>
        <source>No NEW dead letters — good: every consumer handled its messages.</source>
        <translation>没有新死信 — 很好：每个消费者都处理了它的消息。</translation>
    </message>
    <message>
        <source>No dead letters match the filter.</source>
        <translation>没有符合筛选条件的死信。</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Repair the selected NEW dead letter&apos;s payload and headers before replaying it.</source>
        <translation>在重放前修复所选 NEW 死信的载荷和消息头。</translation>
    </message>
    <message>
        <source>Groups…</source>
        <translation>分组…</translation>
    </message>
    <message>
        <source>NEW dead letters grouped by consumer and error; replay or discard a whole group.</source>
        <translation>按消费者和错误分组的 NEW 死信；可重放或丢弃整个分组。</translation>
    </message>
    <message>
        <source>Select one dead letter to edit.</source>
        <translation>请选择一条要编辑的死信。</translation>
    </message>
    <message>
        <source>Only NEW dead letters can be edited (this one is %1).</source>
        <translation>只能编辑 NEW 状态的死信（此条为 %1）。</translation>
    </message>
    <message>
        <source>Dead letter #%1 edited (audit #%2); the original is kept and a replay sends the edited message.</source>
        <translation>死信 #%1 已编辑（审计 #%2）；原始消息已保留，重放将发送编辑后的消息。</translation>
    </message>
    <message>
        <source>Dead letter #%1 not edited: %2</source>
        <translation>死信 #%1 未编辑：%2</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>error contains</source>
        <translation>错误包含</translation>
    </message>
    <message>
        <source>Dead letters whose error contains this text (any case).</source>
        <translation>错误中包含此文本的死信（不区分大小写）。</translation>
    </message>
    <message>
        <source>Show the filter</source>
        <translation>显示筛选结果</translation>
    </message>
    <message>
        <source>Leave the group: the list shows the filter boxes&apos; dead letters again.</source>
        <translation>离开分组：列表重新显示筛选框所选的死信。</translation>
    </message>
    <message numerus="yes">
        <source>The %n NEW dead letter(s) of %1 failing with &quot;%2&quot; (%3)</source>
        <translation>
            <numerusform>%1 中因“%2”（%3）失败的 %n 条 NEW 死信</numerusform>
        </translation>
    </message>
    <message>
        <source>error containing &quot;%1&quot;</source>
        <translation>错误包含“%1”</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::EventInspector</name>
    <message>
        <source>Select an event to inspect it.</source>
        <translation>选择一个事件以查看详情。</translation>
    </message>
    <message>
        <source>Copy as JSON</source>
        <translation>复制为 JSON</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>载荷</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>消息头</translation>
    </message>
    <message>
        <source>Raw</source>
        <translation>原始文本</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>所有列</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作人</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Audit history</source>
        <translation>审计历史</translation>
    </message>
    <message>
        <source>Loading event %1…</source>
        <translation>正在加载事件 %1…</translation>
    </message>
    <message>
        <source>Event %1 · %2 · %3</source>
        <translation>事件 %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>认领</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Operator action</source>
        <translation>人工操作</translation>
    </message>
    <message>
        <source>Consumer inbox</source>
        <translation>消费者收件箱</translation>
    </message>
    <message>
        <source>Dead letter</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation>已重放</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Trail</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Topic: %1 · Aggregate: %2/%3 · Payload size: %4</source>
        <translation>主题：%1 · 聚合：%2/%3 · 载荷大小：%4</translation>
    </message>
    <message>
        <source>(routed by the relay&apos;s topic template)</source>
        <translation>（由中继的主题模板路由）</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>持有中</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::EventTableModel</name>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>(no longer matches)</source>
        <translation>（已不再匹配）</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>聚合</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Payload size</source>
        <translation>载荷大小</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::EventsPage</name>
    <message>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <source>Unsent (PENDING, SENDING, FAILED)</source>
        <translation>未发送（PENDING、SENDING、FAILED）</translation>
    </message>
    <message>
        <source>event type</source>
        <translation>事件类型</translation>
    </message>
    <message>
        <source>aggregate type</source>
        <translation>聚合类型</translation>
    </message>
    <message>
        <source>aggregate id</source>
        <translation>聚合 ID</translation>
    </message>
    <message>
        <source>error text</source>
        <translation>错误文本</translation>
    </message>
    <message>
        <source>from</source>
        <translation>从</translation>
    </message>
    <message>
        <source>until</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Newest first</source>
        <translation>最新在前</translation>
    </message>
    <message>
        <source>Oldest first</source>
        <translation>最旧在前</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Selected events</source>
        <translation>选中的事件</translation>
    </message>
    <message>
        <source>Every event of the current filter</source>
        <translation>当前筛选的全部事件</translation>
    </message>
    <message>
        <source>Requeue…</source>
        <translation>重新入队…</translation>
    </message>
    <message>
        <source>Mark DEAD…</source>
        <translation>标记为 DEAD…</translation>
    </message>
    <message>
        <source>Act on:</source>
        <translation>操作对象：</translation>
    </message>
    <message>
        <source>Refresh groups</source>
        <translation>刷新分组</translation>
    </message>
    <message>
        <source>Requeue group…</source>
        <translation>整组重新入队…</translation>
    </message>
    <message>
        <source>Mark group DEAD…</source>
        <translation>整组标记为 DEAD…</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Error class</source>
        <translation>错误类别</translation>
    </message>
    <message>
        <source>Error fingerprint</source>
        <translation>错误指纹</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>The time range is empty: &quot;from&quot; must be before &quot;until&quot;.</source>
        <translation>时间范围为空：“从”必须早于“至”。</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Select a failure group first.</source>
        <translation>请先选择一个失败分组。</translation>
    </message>
    <message>
        <source>Select one or more events first.</source>
        <translation>请先选择一个或多个事件。</translation>
    </message>
    <message numerus="yes">
        <source>%n selected event(s)</source>
        <translation>
            <numerusform>%n 个选中的事件</numerusform>
        </translation>
    </message>
    <message>
        <source>status %1</source>
        <translation>状态 %1</translation>
    </message>
    <message>
        <source>type %1</source>
        <translation>类型 %1</translation>
    </message>
    <message>
        <source>aggregate type %1</source>
        <translation>聚合类型 %1</translation>
    </message>
    <message>
        <source>aggregate %1</source>
        <translation>聚合 %1</translation>
    </message>
    <message>
        <source>error contains &quot;%1&quot;</source>
        <translation>错误包含“%1”</translation>
    </message>
    <message>
        <source>created from %1</source>
        <translation>创建时间从 %1</translation>
    </message>
    <message>
        <source>created until %1</source>
        <translation>创建时间至 %1</translation>
    </message>
    <message>
        <source>no filter (every event)</source>
        <translation>无筛选（全部事件）</translation>
    </message>
    <message>
        <source>Failure group &quot;%1&quot; (error class %2)</source>
        <translation>失败分组“%1”（错误类别 %2）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Every event of the applied filter (%1)</source>
        <translation>已应用筛选的全部事件（%1）</translation>
    </message>
    <message>
        <source>— the filter boxes have changes that are not applied and are not used; press Apply to act on them</source>
        <translation>—— 筛选框中有尚未应用的修改，不会被使用；如需按其操作，请先点击“应用”</translation>
    </message>
    <message>
        <source>Failure groups of</source>
        <translation>失败分组：</translation>
    </message>
    <message>
        <source>events, by error class and error text</source>
        <translation>事件，按错误类别和错误文本分组</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>as of %1</source>
        <translation>截至 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n event(s), %1</source>
        <translation>
            <numerusform>%n 个事件，%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s) so far, more as you scroll; %1</source>
        <translation>
            <numerusform>目前 %n 个事件，滚动加载更多；%1</numerusform>
        </translation>
    </message>
    <message>
        <source>No %1 events — good.</source>
        <translation>没有%1事件 — 很好。</translation>
    </message>
    <message>
        <source>No %1 events.</source>
        <translation>没有%1事件。</translation>
    </message>
    <message>
        <source>The outbox is empty: no events yet.</source>
        <translation>发件箱为空：还没有事件。</translation>
    </message>
    <message>
        <source>No event matches the filter.</source>
        <translation>没有符合筛选条件的事件。</translation>
    </message>
    <message>
        <source>%1+ new — show</source>
        <translation>%1+ 条新增 — 显示</translation>
    </message>
    <message numerus="yes">
        <source>%n new — show</source>
        <translation>
            <numerusform>%n 条新增 — 显示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n group(s), %1 event(s), as of %2</source>
        <translation>
            <numerusform>%n 个分组，%1 个事件，截至 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>No %1 events — nothing to group.</source>
        <translation>没有%1事件 — 无需分组。</translation>
    </message>
    <message>
        <source>event_id</source>
        <translation>event_id</translation>
    </message>
    <message>
        <source>header KEY=VALUE, e.g. trace_id=abc</source>
        <translation>消息头 键=值，例如 trace_id=abc</translation>
    </message>
    <message>
        <source>payload PATH=VALUE, e.g. customer.id=C-42</source>
        <translation>载荷 路径=值，例如 customer.id=C-42</translation>
    </message>
    <message>
        <source>topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>offset</source>
        <translation>偏移量</translation>
    </message>
    <message>
        <source>Events whose header KEY has exactly VALUE. Keys: letters, digits, _ . -</source>
        <translation>消息头中某个键的值恰好为给定值的事件。键只能包含：字母、数字、_ . -</translation>
    </message>
    <message>
        <source>Events whose payload has exactly VALUE at the dotted PATH (items.0.sku indexes an array). Bound it with a time range on large tables.</source>
        <translation>载荷中某个点分路径处的值恰好为给定值的事件（items.0.sku 表示按下标访问数组）。在大表上请配合时间范围限定。</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
    <message>
        <source>header</source>
        <translation>消息头</translation>
    </message>
    <message>
        <source>Header search: %1</source>
        <translation>消息头搜索：%1</translation>
    </message>
    <message>
        <source>payload</source>
        <translation>载荷</translation>
    </message>
    <message>
        <source>Payload search: %1</source>
        <translation>载荷搜索：%1</translation>
    </message>
    <message>
        <source>Partition: %1</source>
        <translation>分区：%1</translation>
    </message>
    <message>
        <source>Offset: %1</source>
        <translation>偏移量：%1</translation>
    </message>
    <message>
        <source>event_id %1</source>
        <translation>event_id %1</translation>
    </message>
    <message>
        <source>header %1 = &quot;%2&quot;</source>
        <translation>消息头 %1 = “%2”</translation>
    </message>
    <message>
        <source>payload %1 = &quot;%2&quot;</source>
        <translation>载荷 %1 = “%2”</translation>
    </message>
    <message>
        <source>topic %1</source>
        <translation>主题 %1</translation>
    </message>
    <message>
        <source>partition %1</source>
        <translation>分区 %1</translation>
    </message>
    <message>
        <source>offset %1</source>
        <translation>偏移量 %1</translation>
    </message>
    <message>
        <source>trace id (32 hex)</source>
        <translation>追踪 ID（32 位十六进制）</translation>
    </message>
    <message>
        <source>Events of one W3C trace: the 32 hex digits of the trace id, or a whole traceparent header. An index lookup on any table size.</source>
        <translation>一个 W3C 追踪的事件：追踪 ID 的 32 位十六进制数字，或完整的 traceparent 消息头。无论表多大都走索引查询。</translation>
    </message>
    <message>
        <source>Trace id: %1</source>
        <translation>追踪 ID：%1</translation>
    </message>
    <message>
        <source>trace id %1</source>
        <translation>追踪 ID %1</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::FindingsModel</name>
    <message>
        <source>CRITICAL</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>WARNING</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>INFO</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::FleetPage</name>
    <message>
        <source>Filter by name or tag (team=checkout)</source>
        <translation>按名称或标签筛选（team=checkout）</translation>
    </message>
    <message>
        <source>Filter:</source>
        <translation>筛选：</translation>
    </message>
    <message>
        <source>Double-click a member (or press Enter) to open it in the console&apos;s pages.</source>
        <translation>双击成员（或按回车）即可在控制台的各页面中打开它。</translation>
    </message>
    <message numerus="yes">
        <source>%n member(s) of %1, sampling…</source>
        <translation>
            <numerusform>%1 的 %n 个成员，正在采样…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n member(s) of %1, %2 not ok; sampled at %3 (every %4)</source>
        <translation>
            <numerusform>%1 的 %n 个成员，%2 个异常；采样于 %3（每 %4 一次）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::desktop::FleetTableModel</name>
    <message>
        <source>unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>unmigrated</source>
        <translation>未迁移</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Double-click to open %1 in the console&apos;s pages</source>
        <translation>双击即可在控制台的各页面中打开 %1</translation>
    </message>
    <message>
        <source>%1 critical, %2 warning</source>
        <translation>%1 个严重，%2 个警告</translation>
    </message>
    <message>
        <source>Member</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Backlog</source>
        <translation>积压</translation>
    </message>
    <message>
        <source>Backlog trend</source>
        <translation>积压趋势</translation>
    </message>
    <message>
        <source>Oldest pending</source>
        <translation>最早待发送</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>DEAD</source>
        <translation>死亡</translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Relays</source>
        <translation>中继</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>%1 (slow, %2 old)</source>
        <translation>%1（缓慢，数据已有 %2）</translation>
    </message>
    <message>
        <source>%1 (next attempt in %2)</source>
        <translation>%1（%2 后再次尝试）</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::GroupEditDialog</name>
    <message>
        <source>Edit the payloads of a dead-letter group</source>
        <translation>编辑死信分组的载荷</translation>
    </message>
    <message>
        <source>Consumer %1, %2 dead letter(s) failing with &quot;%3&quot;. One change for every NEW letter of the group; each keeps its original, and a replay of the group sends the edited messages.</source>
        <translation>消费者 %1，%2 条死信因“%3”失败。对该分组的每条 NEW 死信做同一更改；每条都保留其原始消息，重放该分组将发送编辑后的消息。</translation>
    </message>
    <message>
        <source>Set a member</source>
        <translation>设置成员</translation>
    </message>
    <message>
        <source>Replace a value</source>
        <translation>替换值</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Path (members separated by dots; empty: anywhere, for Replace)</source>
        <translation>路径（成员以点分隔；替换时留空表示任意位置）</translation>
    </message>
    <message>
        <source>Value to replace (JSON; other text is a string)</source>
        <translation>要替换的值（JSON；其他文本视为字符串）</translation>
    </message>
    <message>
        <source>New value (JSON; other text is a string)</source>
        <translation>新值（JSON；其他文本视为字符串）</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Type the phrase shown after the preview to confirm</source>
        <translation>预览后输入显示的短语以确认</translation>
    </message>
    <message>
        <source>Reason (required, kept in the audit log)</source>
        <translation>原因（必填，记入审计日志）</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <source>Reading the group…</source>
        <translation>正在读取分组…</translation>
    </message>
    <message>
        <source>#%1 (edit %2): unchanged, %3</source>
        <translation>#%1（第 %2 次编辑）：不变，%3</translation>
    </message>
    <message>
        <source>#%1 (edit %2):</source>
        <translation>#%1（第 %2 次编辑）：</translation>
    </message>
    <message>
        <source>%1 of %2 dead letter(s) change: %3</source>
        <translation>%2 条死信中 %1 条将更改：%3</translation>
    </message>
    <message>
        <source>Editing…</source>
        <translation>正在编辑…</translation>
    </message>
    <message>
        <source>Edited %1 dead letter(s) in %2 audited chunk(s); %3 conflict(s) (changed by someone else since the preview, left as they are).</source>
        <translation>已在 %2 个审计分块中编辑 %1 条死信；%3 个冲突（预览之后已被他人更改，保持原样）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::JsonTreeModel</name>
    <message numerus="yes">
        <source>{%n key(s)}</source>
        <translation>
            <numerusform>{%n 个键}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>[%n item(s)]</source>
        <translation>
            <numerusform>[%n 项]</numerusform>
        </translation>
    </message>
    <message>
        <source>object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <source>null</source>
        <translation>空值</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::LeaseHoldersChart</name>
    <message>
        <source>Lease holders: events in SENDING per relay</source>
        <translation>租约持有者：各中继发送中的事件</translation>
    </message>
    <message>
        <source>SENDING</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>expired leases</source>
        <translation>已过期租约</translation>
    </message>
    <message>
        <source>other relays</source>
        <translation>其他中继</translation>
    </message>
    <message>
        <source>(no worker)</source>
        <translation>（无工作者）</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n lease(s) expired of %2 held</source>
        <translation>
            <numerusform>%1：持有 %2 个租约，其中 %n 个已过期</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>outbox::desktop::MainWindow</name>
    <message>
        <source>Outbox Console</source>
        <translation>Outbox 控制台</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <source>Relays</source>
        <translation>中继</translation>
    </message>
    <message>
        <source>&amp;Connection</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation>断开(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Wallboard</source>
        <translation>大屏模式(&amp;W)</translation>
    </message>
    <message>
        <source>Connection lost: %1 — reconnecting…</source>
        <translation>连接已断开：%1 —— 正在重新连接…</translation>
    </message>
    <message>
        <source>Outbox Console — %1</source>
        <translation>Outbox 控制台 —— %1</translation>
    </message>
    <message>
        <source>%1 · PRODUCTION</source>
        <translation>%1 · 生产环境</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Password for %1:</source>
        <translation>%1 的密码：</translation>
    </message>
    <message>
        <source>Outbox wallboard — press Esc to leave</source>
        <translation>Outbox 大屏 —— 按 Esc 退出</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>已连接到 %1</translation>
    </message>
    <message>
        <source>%1 · tables %2*</source>
        <translation>%1 · 表 %2*</translation>
    </message>
    <message>
        <source>Serve &amp;NOC dashboard</source>
        <translation>提供 NOC 看板(&amp;N)</translation>
    </message>
    <message>
        <source>NOC dashboard at http://127.0.0.1:%1/</source>
        <translation>NOC 看板位于 http://127.0.0.1:%1/</translation>
    </message>
    <message>
        <source>%1 — retrying…</source>
        <translation>%1 — 正在重试…</translation>
    </message>
    <message>
        <source>Recovery</source>
        <translation>故障恢复</translation>
    </message>
    <message>
        <source>Recovery (%1 critical, %2 warning)</source>
        <translation>故障恢复（%1 严重，%2 警告）</translation>
    </message>
    <message>
        <source>No database given: enter a URL (postgresql://…, mysql://… or sqlite:///…) in Connection › Connect…</source>
        <translation>未指定数据库：请在“连接 › 连接…”中输入 URL（postgresql://…、mysql://… 或 sqlite:///…）</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>阻塞</translation>
    </message>
    <message>
        <source>Consumers</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Not current: the database has not answered since %1 (%2)</source>
        <translation>数据已过时：数据库自 %1 起没有响应（%2）</translation>
    </message>
    <message>
        <source>The database does not answer: %1</source>
        <translation>数据库没有响应：%1</translation>
    </message>
    <message>
        <source>The database answers again (it did not from %1 to %2)</source>
        <translation>数据库已重新响应（从 %1 到 %2 期间没有响应）</translation>
    </message>
    <message>
        <source>Managed relay</source>
        <translation>托管中继</translation>
    </message>
    <message>
        <source>The relay this console started sends the events of %1. Disconnect and stop it, or keep it running in the background?</source>
        <translation>此控制台启动的中继正在发送 %1 的事件。断开连接并停止它，还是让它在后台继续运行？</translation>
    </message>
    <message>
        <source>The relay this console started sends the events of %1, not of %2. Stop it, or keep it running in the background for %1?</source>
        <translation>此控制台启动的中继发送的是 %1 的事件，而不是 %2 的。停止它，还是让它在后台继续为 %1 运行？</translation>
    </message>
    <message>
        <source>Stop the relay</source>
        <translation>停止中继</translation>
    </message>
    <message>
        <source>Keep it running in the background</source>
        <translation>让它在后台继续运行</translation>
    </message>
    <message>
        <source>Stayed on %1; its managed relay keeps running.</source>
        <translation>仍停留在 %1；其托管中继继续运行。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;fleet file…</source>
        <translation>打开集群文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Outbox Console — fleet member %1 (%2)</source>
        <translation>Outbox 控制台 — 集群成员 %1（%2）</translation>
    </message>
    <message>
        <source>Fleet member %1 · PRODUCTION · %2 — every action here changes this database only</source>
        <translation>集群成员 %1 · 生产环境 · %2 — 此处的每个操作只改变此数据库</translation>
    </message>
    <message>
        <source>Fleet member %1 · %2 — every action here changes this database only</source>
        <translation>集群成员 %1 · %2 — 此处的每个操作只改变此数据库</translation>
    </message>
    <message>
        <source>Cannot open the fleet file: %1</source>
        <translation>无法打开集群文件：%1</translation>
    </message>
    <message>
        <source>Fleet</source>
        <translation>集群</translation>
    </message>
    <message numerus="yes">
        <source>Fleet file %1: %n member(s)</source>
        <translation>
            <numerusform>集群文件 %1：%n 个成员</numerusform>
        </translation>
    </message>
    <message>
        <source>No fleet file is open</source>
        <translation>没有打开集群文件</translation>
    </message>
    <message>
        <source>Open fleet file</source>
        <translation>打开集群文件</translation>
    </message>
    <message>
        <source>Fleet files (*.ini *.conf);;All files (*)</source>
        <translation>集群文件 (*.ini *.conf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Fleet file</source>
        <translation>集群文件</translation>
    </message>
    <message>
        <source>&amp;Import connection profiles from fleet file…</source>
        <translation>从集群文件导入连接配置(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Export connection profiles to fleet file…</source>
        <translation>将连接配置导出到集群文件(&amp;E)…</translation>
    </message>
    <message>
        <source>Import connection profiles from a fleet file</source>
        <translation>从集群文件导入连接配置</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n connection profile(s) from %1 (no passwords: a member&apos;s comes from OUTBOX_DB_PASSWORD_&lt;MEMBER&gt; or a prompt)</source>
        <translation>
            <numerusform>已从 %1 导入 %n 个连接配置（不含密码：成员的密码来自 OUTBOX_DB_PASSWORD_&lt;MEMBER&gt; 或提示输入）</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot import connection profiles: %1</source>
        <translation>无法导入连接配置：%1</translation>
    </message>
    <message>
        <source>Export connection profiles to a fleet file</source>
        <translation>将连接配置导出到集群文件</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n connection profile(s) to the fleet file %1 (without passwords)</source>
        <translation>
            <numerusform>已将 %n 个连接配置导出到集群文件 %1（不含密码）</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export connection profiles: %1</source>
        <translation>无法导出连接配置：%1</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::ManagedRelay</name>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>$ %1 %2</source>
        <translation>$ %1 %2</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>relay exited (%1, code %2); restarting in %3 ms</source>
        <translation>中继已退出（%1，退出码 %2）；%3 毫秒后重启</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <source>exited</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>restarting</source>
        <translation>正在重启</translation>
    </message>
    <message>
        <source>configuration error</source>
        <translation>配置错误</translation>
    </message>
    <message>
        <source>relay exited with code %1 (configuration error); not restarting</source>
        <translation>中继以退出码 %1 退出（配置错误）；不再重启</translation>
    </message>
    <message>
        <source>stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <source>%1 · tables %2*</source>
        <translation>%1 · 表 %2*</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::OldestPendingChart</name>
    <message>
        <source>Oldest pending event&apos;s age (%1)</source>
        <translation>最早待发送事件的等待时长（%1）</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>oldest pending</source>
        <translation>最早待发送</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>hours</source>
        <translation>小时</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::OverviewPage</name>
    <message>
        <source>Refresh every</source>
        <translation>刷新间隔</translation>
    </message>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Wallboard</source>
        <translation>大屏模式</translation>
    </message>
    <message>
        <source>Oldest pending</source>
        <translation>最早待发送</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>待发送</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>死亡</translation>
    </message>
    <message>
        <source>Dead letters NEW</source>
        <translation>新死信</translation>
    </message>
    <message>
        <source>Relays up</source>
        <translation>在线中继</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Attempts of unsent events</source>
        <translation>未发送事件的尝试次数</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>工作者</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>发送中</translation>
    </message>
    <message>
        <source>Expired leases</source>
        <translation>过期租约</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>中继</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Heartbeat age</source>
        <translation>心跳间隔</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>健康状况</translation>
    </message>
    <message>
        <source>Lease holders</source>
        <translation>租约持有者</translation>
    </message>
    <message>
        <source>Relays</source>
        <translation>中继</translation>
    </message>
    <message>
        <source>events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Updated %1 (%2 ms)%3</source>
        <translation>更新于 %1（%2 毫秒）%3</translation>
    </message>
    <message>
        <source>; SENT is an estimate</source>
        <translation>；SENT 为估算值</translation>
    </message>
    <message>
        <source>stale heartbeat</source>
        <translation>心跳过期</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Show what this counts</source>
        <translation>显示此数字统计的内容</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>每 %1</translation>
    </message>
    <message>
        <source>Backlog by status (sampled %1)</source>
        <translation>按状态的积压（%1采样）</translation>
    </message>
    <message>
        <source>Sent and failed per interval (%1)</source>
        <translation>每个间隔的发送与失败（%1）</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Not current: no sample since %1 (%2)</source>
        <translation>数据已过时：自 %1 起没有采样（%2）</translation>
    </message>
    <message>
        <source>not current</source>
        <translation>已过时</translation>
    </message>
    <message>
        <source>STALE, presumed dead (last reported %1)</source>
        <translation>已失效，推测已停止（最后报告于 %1）</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::PreviewSample</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>聚合</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Consumer</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>Event id</source>
        <translation>事件 ID</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>工作者</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Desired</source>
        <translation>期望状态</translation>
    </message>
    <message>
        <source>Heartbeat age</source>
        <translation>心跳间隔</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>Wake-up trigger</source>
        <translation>唤醒触发器</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more aggregate(s).</source>
        <translation>
            <numerusform>… 以及另外 %n 个聚合。</numerusform>
        </translation>
    </message>
    <message>
        <source>Ordering:</source>
        <translation>顺序：</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RecoveryFlow</name>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>Open in inspector</source>
        <translation>在检查器中打开</translation>
    </message>
    <message>
        <source>Why (likely causes)</source>
        <translation>原因（可能的起因）</translation>
    </message>
    <message>
        <source>What to do (tick the steps off)</source>
        <translation>怎么做（逐步勾选）</translation>
    </message>
    <message>
        <source>Prepared actions</source>
        <translation>预备操作</translation>
    </message>
    <message>
        <source>Copy command</source>
        <translation>复制命令</translation>
    </message>
    <message>
        <source>Preview…</source>
        <translation>预览…</translation>
    </message>
    <message>
        <source>outboxctl:</source>
        <translation>outboxctl：</translation>
    </message>
    <message>
        <source>Command copied to the clipboard.</source>
        <translation>命令已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Reason (kept in the audit log):</source>
        <translation>原因（记入审计日志）：</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stops between chunks: finished chunks stay committed and audited.</source>
        <translation>在批次之间停止：已完成的批次保持提交并已审计。</translation>
    </message>
    <message>
        <source>Cancelling after the chunk under way…</source>
        <translation>当前批次完成后取消…</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>再次检查</translation>
    </message>
    <message>
        <source>Back to the findings</source>
        <translation>返回发现列表</translation>
    </message>
    <message>
        <source>Choose a finding to start its recovery.</source>
        <translation>选择一条发现以开始故障恢复。</translation>
    </message>
    <message>
        <source>1 What happened, why, what to do</source>
        <translation>1 发生了什么、为什么、怎么做</translation>
    </message>
    <message>
        <source>2 Preview</source>
        <translation>2 预览</translation>
    </message>
    <message>
        <source>3 Running</source>
        <translation>3 执行中</translation>
    </message>
    <message>
        <source>4 Verification</source>
        <translation>4 验证</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>oldest: %1</source>
        <translation>最早：%1</translation>
    </message>
    <message>
        <source>newest: %1</source>
        <translation>最新：%1</translation>
    </message>
    <message>
        <source>Runs outside the console: copy the command.</source>
        <translation>在控制台之外执行：请复制命令。</translation>
    </message>
    <message>
        <source>Event #%1</source>
        <translation>事件 #%1</translation>
    </message>
    <message>
        <source>Dead letter #%1</source>
        <translation>死信 #%1</translation>
    </message>
    <message>
        <source>Preparing the preview (a dry run)…</source>
        <translation>正在准备预览（试运行）…</translation>
    </message>
    <message>
        <source>Preview failed: %1</source>
        <translation>预览失败：%1</translation>
    </message>
    <message>
        <source>%1 — %2 row(s) will change. %3</source>
        <translation>%1 —— 将更改 %2 行。%3</translation>
    </message>
    <message>
        <source>%1 %2 row(s) match but are not eligible.</source>
        <translation>%1 行 %2 状态的记录匹配但不符合条件。</translation>
    </message>
    <message>
        <source>%1 named row(s) are in another state and are left alone.</source>
        <translation>%1 行指定记录处于其他状态，将保持不变。</translation>
    </message>
    <message>
        <source>It runs in chunks of %1 rows, each its own audited transaction; Cancel stops it between chunks.</source>
        <translation>操作按每批 %1 行执行，每批都是独立且记入审计的事务；“取消”会在两批之间停止。</translation>
    </message>
    <message>
        <source>This is a PRODUCTION connection.</source>
        <translation>这是生产环境连接。</translation>
    </message>
    <message>
        <source>Nothing to change: no row is in a state this action accepts (any more).</source>
        <translation>无需更改：（已）没有记录处于此操作接受的状态。</translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <source>Preview ready: nothing has changed yet.</source>
        <translation>预览就绪：尚未做任何更改。</translation>
    </message>
    <message>
        <source>Running %1 in audited chunks of at most %2 rows…</source>
        <translation>正在以每批最多 %2 行的审计批次执行 %1…</translation>
    </message>
    <message>
        <source>%1 of %2 row(s) done in %3 chunk(s); %4 conflict(s).</source>
        <translation>已完成 %1 / %2 行，共 %3 批；%4 个冲突。</translation>
    </message>
    <message>
        <source>The action failed: %1. Chunks committed before the error stay committed and are in the audit log.</source>
        <translation>操作失败：%1。出错前已提交的批次保持提交，并记录在审计日志中。</translation>
    </message>
    <message>
        <source>%1 row(s) changed, %2 conflict(s)%3. Audit rows: %4 (reason &quot;%5&quot;).</source>
        <translation>已更改 %1 行，%2 个冲突%3。审计记录：%4（原因“%5”）。</translation>
    </message>
    <message>
        <source>, cancelled before the end</source>
        <translation>，在完成前被取消</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Running the %1 check again…</source>
        <translation>正在再次运行 %1 检查…</translation>
    </message>
    <message>
        <source>The check could not run: %1</source>
        <translation>检查无法运行：%1</translation>
    </message>
    <message>
        <source>Before: %1 %2.</source>
        <translation>之前：%1 %2。</translation>
    </message>
    <message>
        <source>After: the finding is gone — the %1 check finds nothing of it any more.</source>
        <translation>之后：该发现已消失 —— %1 检查不再发现它。</translation>
    </message>
    <message>
        <source>After: %1 %2 still — %3</source>
        <translation>之后：仍有 %1 %2 —— %3</translation>
    </message>
    <message>
        <source>The finding is still there.</source>
        <translation>该发现仍然存在。</translation>
    </message>
    <message>
        <source>The finding is gone.</source>
        <translation>该发现已消失。</translation>
    </message>
    <message>
        <source>The same action from a shell, with the finding as its reason (change it as you like).</source>
        <translation>在命令行中执行同一操作，以该发现作为原因（可按需修改）。</translation>
    </message>
    <message>
        <source>Start a managed relay</source>
        <translation>启动托管中继</translation>
    </message>
    <message>
        <source>The console starts outboxctl relay on this database as its child (Relays page).</source>
        <translation>控制台以子进程方式在此数据库上启动 outboxctl relay（见“中继”页面）。</translation>
    </message>
    <message>
        <source>error class: %1</source>
        <translation>错误类别：%1</translation>
    </message>
    <message>
        <source>example: %1</source>
        <translation>示例：%1</translation>
    </message>
    <message>
        <source>consumer: %1</source>
        <translation>消费者：%1</translation>
    </message>
    <message>
        <source>last error: %1</source>
        <translation>最后错误：%1</translation>
    </message>
    <message>
        <source>payload: %1</source>
        <translation>载荷：%1</translation>
    </message>
    <message>
        <source>Edit group…</source>
        <translation>编辑分组…</translation>
    </message>
    <message>
        <source>Repair the payloads of the group: one JSON change, every letter&apos;s diff previewed, a reason and the count typed.</source>
        <translation>修复该分组的载荷：一次 JSON 更改，预览每条死信的差异，填写原因并输入数量确认。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RecoveryPage</name>
    <message>
        <source>The doctor has not run yet.</source>
        <translation>诊断尚未运行。</translation>
    </message>
    <message>
        <source>Run the doctor now</source>
        <translation>立即运行诊断</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>The doctor cannot read the database: %1</source>
        <translation>诊断无法读取数据库：%1</translation>
    </message>
    <message>
        <source>The doctor is running…</source>
        <translation>诊断正在运行…</translation>
    </message>
    <message>
        <source>No findings (checked %1).</source>
        <translation>没有发现（检查于 %1）。</translation>
    </message>
    <message>
        <source>%1 critical, %2 warning, %3 info (checked %4).</source>
        <translation>%1 严重，%2 警告，%3 提示（检查于 %4）。</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RelayControlDialog</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Drain</source>
        <translation>排空</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n relay(s)</source>
        <translation>
            <numerusform>%1 %n 个中继</numerusform>
        </translation>
    </message>
    <message>
        <source>Paused relays stop claiming new events at their next heartbeat; events in flight are finished. Pending events wait (or go to other relays) until the relays are resumed.</source>
        <translation>暂停的中继在下一次心跳时停止认领新事件；发送中的事件会完成。待发送事件将等待（或由其他中继发送），直到中继继续运行。</translation>
    </message>
    <message>
        <source>Resumed relays claim and send events again at their next heartbeat.</source>
        <translation>继续运行的中继在下一次心跳时重新认领并发送事件。</translation>
    </message>
    <message>
        <source>Draining relays finish the events in flight, give back their claims and exit; the process must be started again to send more.</source>
        <translation>排空的中继完成发送中的事件，归还认领并退出；必须重新启动进程才能继续发送。</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>中继</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>State now</source>
        <translation>当前状态</translation>
    </message>
    <message>
        <source>Will be asked to</source>
        <translation>将被要求</translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation>原因（写入审计日志）</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>PRODUCTION — type &quot;%1&quot; to confirm:</source>
        <translation>生产环境 — 输入“%1”以确认：</translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation>输入“%1”以确认：</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>执行中…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::RelaysPage</name>
    <message>
        <source>Worker</source>
        <translation>工作者</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>进程号</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Desired</source>
        <translation>期望状态</translation>
    </message>
    <message>
        <source>Heartbeat age</source>
        <translation>心跳间隔</translation>
    </message>
    <message>
        <source>Leases</source>
        <translation>租约</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Fenced</source>
        <translation>被隔离</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Drain</source>
        <translation>排空</translation>
    </message>
    <message>
        <source>Managed relay (outboxctl relay as a child process)</source>
        <translation>托管中继（以子进程运行 outboxctl relay）</translation>
    </message>
    <message>
        <source>extra arguments, e.g. --kafka-bootstrap 127.0.0.1:9092</source>
        <translation>附加参数，例如 --kafka-bootstrap 127.0.0.1:9092</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Select one or more relays first.</source>
        <translation>请先选择一个或多个中继。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n relay(s) changed (audit #%2)</source>
        <translation>
            <numerusform>%1：已更改 %n 个中继（审计 #%2）</numerusform>
        </translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>reason (required, asked for again before anything changes)</source>
        <translation>原因（必填，执行前会再次确认）</translation>
    </message>
    <message>
        <source>No relay has registered with this database: nothing sends the outbox&apos;s events. Start one below or with outboxctl relay.</source>
        <translation>此数据库没有已注册的中继：没有任何进程发送发件箱的事件。请在下方或用 outboxctl relay 启动一个。</translation>
    </message>
    <message>
        <source>Broker</source>
        <translation>Broker</translation>
    </message>
    <message>
        <source>Managed relay of database</source>
        <translation>数据库的托管中继</translation>
    </message>
    <message>
        <source>(managed relay kept running in the background; its earlier output is not shown)</source>
        <translation>（托管中继在后台继续运行；不显示其之前的输出）</translation>
    </message>
    <message>
        <source>Serves %1</source>
        <translation>服务于 %1</translation>
    </message>
    <message>
        <source>STALE, presumed dead (last reported %1)</source>
        <translation>已失效，推测已停止（最后报告于 %1）</translation>
    </message>
    <message>
        <source>publishes to %1</source>
        <translation>发布到 %1</translation>
    </message>
    <message>
        <source>The broker is not configured: add --kafka-bootstrap=HOST:PORT (or --broker=URL) to the arguments and press Start.</source>
        <translation>未配置 Broker：在参数中加入 --kafka-bootstrap=HOST:PORT（或 --broker=URL），然后点击“启动”。</translation>
    </message>
    <message>
        <source>Wake-up</source>
        <translation>唤醒方式</translation>
    </message>
    <message>
        <source>Managed relay running for %1</source>
        <translation>托管中继正在为 %1 运行</translation>
    </message>
</context>
<context>
    <name>outbox::desktop::StatTile</name>
    <message>
        <source>%1 (not current)</source>
        <translation>%1（已过时）</translation>
    </message>
</context>
</TS>
