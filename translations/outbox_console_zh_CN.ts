<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ActionDialog</name>
    <message>
        <location filename="../ui/desktop/ActionDialog.cpp" line="26"/>
        <source>Sample of the rows that will change:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionDialog.cpp" line="36"/>
        <source>Why (written to the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionDialog.cpp" line="37"/>
        <source>Reason:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionDialog.cpp" line="42"/>
        <source>Type &quot;%1&quot; to confirm:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionDialog.cpp" line="49"/>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ActionRunner</name>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="30"/>
        <source>Requeue events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="32"/>
        <source>Mark events DEAD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="34"/>
        <source>Replay dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="36"/>
        <source>Discard dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/ActionRunner.cpp" line="115"/>
        <source>Nothing to change: none of the targeted rows is in a state this action accepts (%n conflict(s)).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="119"/>
        <source>%1: %2 row(s) will change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/ActionRunner.cpp" line="121"/>
        <source>%n targeted row(s) are in another state and will be left alone.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="123"/>
        <source>%1 %2 row(s) match but are not eligible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="132"/>
        <source>This is a PRODUCTION connection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="140"/>
        <source>Applying in chunks of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="140"/>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="149"/>
        <source>Cancelled; nothing changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ActionRunner.cpp" line="215"/>
        <source>#%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/ActionRunner.cpp" line="224"/>
        <source>Cancelled after %n row(s); every finished chunk is committed and audited.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/ActionRunner.cpp" line="235"/>
        <source>%1: %n row(s) changed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/ActionRunner.cpp" line="237"/>
        <source>%n conflict(s) (state changed meanwhile)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AuditPage</name>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="48"/>
        <source>action, e.g. events.requeue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="51"/>
        <source>actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="52"/>
        <source>since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="55"/>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="57"/>
        <source>Load more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="58"/>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="60"/>
        <source>Export JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="65"/>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="66"/>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="67"/>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="68"/>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="69"/>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="70"/>
        <source>Affected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="71"/>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="72"/>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="73"/>
        <source>Target ids</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="85"/>
        <location filename="../ui/desktop/AuditPage.cpp" line="90"/>
        <source>Export audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="85"/>
        <source>CSV (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/AuditPage.cpp" line="90"/>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/AuditPage.cpp" line="193"/>
        <source>Exported %n audit entrie(s) to %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="18"/>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="47"/>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="23"/>
        <source>(new connection)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="33"/>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="34"/>
        <source>green (development)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="35"/>
        <source>yellow (staging)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="36"/>
        <source>red (production: typed confirmation for every action)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="37"/>
        <source>Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="38"/>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="39"/>
        <source>URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="40"/>
        <source>Colour tag:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="42"/>
        <source>Passwords are never stored: they come from OUTBOX_DB_PASSWORD or are asked for when connecting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ConnectDialog.cpp" line="46"/>
        <source>Save profile</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeadLettersPage</name>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="30"/>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="35"/>
        <source>consumer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="36"/>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="38"/>
        <source>Load more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="42"/>
        <source>Selected dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="43"/>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="138"/>
        <source>Every dead letter of the filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="44"/>
        <source>Replay…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="46"/>
        <source>Discard…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="54"/>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="55"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="56"/>
        <source>Consumer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="57"/>
        <source>Topic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="58"/>
        <source>Event id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="59"/>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="60"/>
        <source>Last failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="61"/>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="143"/>
        <source>Select one or more dead letters first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/DeadLettersPage.cpp" line="146"/>
        <source>%n selected dead letter(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EventInspector</name>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="36"/>
        <location filename="../ui/desktop/EventInspector.cpp" line="88"/>
        <source>Select an event to inspect it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="39"/>
        <source>Copy as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="63"/>
        <source>Payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="64"/>
        <source>Headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="68"/>
        <source>Raw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="71"/>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="71"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="72"/>
        <source>Columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="75"/>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="75"/>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="75"/>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="75"/>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="75"/>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="76"/>
        <source>Audit history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="111"/>
        <source>Loading event %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventInspector.cpp" line="135"/>
        <source>Event %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EventTableModel</name>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="204"/>
        <location filename="../ui/desktop/EventTableModel.cpp" line="212"/>
        <source>loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="219"/>
        <source>(no longer matches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="261"/>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="263"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="265"/>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="267"/>
        <source>Aggregate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="269"/>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="271"/>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventTableModel.cpp" line="273"/>
        <source>Last error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EventsPage</name>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="34"/>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="35"/>
        <source>Unsent (PENDING, SENDING, FAILED)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="46"/>
        <source>event type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="47"/>
        <source>aggregate type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="48"/>
        <source>aggregate id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="49"/>
        <source>error text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="50"/>
        <source>from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="54"/>
        <source>until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="64"/>
        <source>Newest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="65"/>
        <source>Oldest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="66"/>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="77"/>
        <source>Selected events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="78"/>
        <location filename="../ui/desktop/EventsPage.cpp" line="259"/>
        <source>Every event of the current filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="79"/>
        <source>Requeue…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="81"/>
        <source>Mark DEAD…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="85"/>
        <source>Act on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="112"/>
        <source>Failure groups (unsent events by error class and error text)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="114"/>
        <source>Refresh groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="116"/>
        <source>Requeue group…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="118"/>
        <source>Mark group DEAD…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="124"/>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="125"/>
        <source>Error class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="126"/>
        <source>Error fingerprint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="127"/>
        <source>Example</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/EventsPage.cpp" line="158"/>
        <source>%n event(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/EventsPage.cpp" line="159"/>
        <source>%n event(s) so far, more as you scroll</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="184"/>
        <source>The time range is empty: &quot;from&quot; must be before &quot;until&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="198"/>
        <source>loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="240"/>
        <source>Not connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="247"/>
        <source>Select a failure group first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="251"/>
        <source>Failure group &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/EventsPage.cpp" line="263"/>
        <source>Select one or more events first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/EventsPage.cpp" line="266"/>
        <source>%n selected event(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JsonTreeModel</name>
    <message numerus="yes">
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="108"/>
        <source>{%n key(s)}</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="110"/>
        <source>[%n item(s)]</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="121"/>
        <source>object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="123"/>
        <source>array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="125"/>
        <source>string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="127"/>
        <source>number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="129"/>
        <source>boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="131"/>
        <source>null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="143"/>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="145"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/JsonTreeModel.cpp" line="147"/>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="29"/>
        <source>Outbox Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="33"/>
        <source>Not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="51"/>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="52"/>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="53"/>
        <source>Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="54"/>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="55"/>
        <source>Relays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="64"/>
        <source>&amp;Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="65"/>
        <source>&amp;Connect…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="67"/>
        <source>&amp;Disconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="69"/>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="70"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="71"/>
        <source>&amp;Wallboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="103"/>
        <source>Connection lost: %1 — reconnecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="123"/>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="123"/>
        <source>Password for %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="167"/>
        <source>Outbox Console — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="168"/>
        <source>%1 · PRODUCTION</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="174"/>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/MainWindow.cpp" line="211"/>
        <source>Outbox wallboard — press Esc to leave</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ManagedRelay</name>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="22"/>
        <source>cannot start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="77"/>
        <source>$ %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="79"/>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="94"/>
        <source>stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="102"/>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="106"/>
        <source>relay exited (%1, code %2); restarting in %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="107"/>
        <source>crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="107"/>
        <source>exited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/ManagedRelay.cpp" line="110"/>
        <source>restarting</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="63"/>
        <source>Refresh every</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/OverviewPage.cpp" line="67"/>
        <source>%n second(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="70"/>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="77"/>
        <source>Wallboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="88"/>
        <source>Oldest pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="89"/>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="90"/>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="91"/>
        <source>Dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="92"/>
        <source>Dead letters NEW</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="93"/>
        <source>Relays up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="107"/>
        <source>Backlog by status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="126"/>
        <source>Sent and failed per interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="134"/>
        <source>sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="137"/>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="147"/>
        <source>Attempts of unsent events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="163"/>
        <source>Worker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="163"/>
        <source>Sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="163"/>
        <source>Expired leases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="166"/>
        <source>Relay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="166"/>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="166"/>
        <source>Heartbeat age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="166"/>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="172"/>
        <source>Lease holders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="174"/>
        <source>Relays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="206"/>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="208"/>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="210"/>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="212"/>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="213"/>
        <source>%1 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="264"/>
        <source>events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="277"/>
        <source>Updated %1 (%2 ms)%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="280"/>
        <source>; SENT is an estimate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="296"/>
        <source>stale heartbeat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/OverviewPage.cpp" line="296"/>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RelaysPage</name>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="26"/>
        <source>Worker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="27"/>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="28"/>
        <source>PID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="29"/>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="30"/>
        <source>Desired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="31"/>
        <source>Heartbeat age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="32"/>
        <source>Leases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="33"/>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="34"/>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="35"/>
        <source>Fenced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="36"/>
        <source>Last error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="55"/>
        <source>reason (required, written to the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="61"/>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="62"/>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="63"/>
        <source>Drain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="72"/>
        <source>Managed relay (outboxctl relay as a child process)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="77"/>
        <source>extra arguments, e.g. --kafka-bootstrap 127.0.0.1:9092</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="78"/>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="80"/>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="82"/>
        <source>not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="135"/>
        <source>Select one or more relays first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="140"/>
        <source>A reason is required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/desktop/RelaysPage.cpp" line="151"/>
        <source>%1: %n relay(s) changed (audit #%2)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/desktop/RelaysPage.cpp" line="158"/>
        <source>Not connected.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="36"/>
        <source>Outbox Console: live health and audited operations for a transactional outbox.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="39"/>
        <source>Database URL (password from the URL, OUTBOX_DB_PASSWORD or a prompt).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="41"/>
        <source>Start `outboxctl demo` as a child and open its database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="42"/>
        <source>Open the full-screen wallboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../app/outbox-console/main.cpp" line="66"/>
        <source>Demo</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
