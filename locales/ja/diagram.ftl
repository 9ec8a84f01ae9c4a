# シーケンス図、凡例、移動するメッセージの中に描く言葉（src/ui/geometry.rs、
# src/ui/motion_draw.rs）。ページと SVG エクスポートで共通です。エージェント名、メッセージ型、
# リクエスト ID、ステータス（pending、approved、rejected、working、idle、shutdown）は翻訳しません。

diagram-run-finished = ■ 実行終了
diagram-budget-reached = ■ 予算に到達：{ $limit }
diagram-head-tokens = { $tokens } トークン
diagram-spawn = { $name } を起動
diagram-shut-down = { $name } はシャットダウンしました
# The word under an earlier head of a teammate spawned again: that run of it was replaced by a new one.
diagram-replaced = 置き換え済み
diagram-dropped = 破棄
diagram-fault-dropped = （破棄）
diagram-fault-duplicate = （複製）
diagram-fault-delayed = （遅延）
diagram-fault-reordered = （順序入れ替え）
diagram-tool-running = 実行中…
diagram-violations = 違反：{ $kinds }
diagram-inbox = { $name } のインボックス：{ $count } 件待機中
diagram-held = 保留（{ $hold }）
diagram-held-label = { $from } → { $to }：{ $msg_type }、保留（{ $hold }）
diagram-hold-delayed = 遅延
diagram-hold-reordered = 順序入れ替え

## 凡例
legend-read = 実線：読まれた。色 = その request_id
legend-waiting = 点線：送信済み、インボックスで待機中
legend-plain = 破線：通常のメッセージかブロードキャスト
legend-dropped = 先端の ×：障害で破棄され、届かない
legend-fault-word = 下の文字：遅延、順序入れ替え、複製
legend-pending = リクエストが pending：回答待ち（FSM）
legend-tool = ツール呼び出し（赤：拒否、破線：実行中）
legend-model = ライフライン上の帯：モデルの応答待ち
legend-shut-down = ライフライン上の ×：チームメイトがシャットダウン
legend-violation = プロトコル違反（ポインターを合わせると詳細）
legend-in-flight = 配送中のメッセージ、矢印に沿って移動
legend-inbox = 読まれるまでインボックスで待機（件数）
legend-held = 解放されるまで障害によって途中で保留
legend-summary = 凡例：色付きの実線の矢印は、受信者が読んだリクエストまたはレスポンスで、色は request_id ごと。点線の矢印は、まだインボックスで待っているメッセージ。破線の矢印は、通常のメッセージかブロードキャスト。× で終わる矢印は、障害で破棄されたもの。矢印の下の（遅延）、（順序入れ替え）、（複製）は、障害の影響を受けたもの。バッジは、各リクエストの状態 pending、approved、rejected。黄色の箱は、ツール呼び出し。ライフライン上の帯は、モデルを待つエージェント。ライフライン上の × は、シャットダウンしたチームメイト。⚠ はプロトコル違反。封筒は、配送中のメッセージ。ライフライン上の数字付きの封筒の束は、そのインボックスで待つメッセージ。点線の上に止まった封筒は、解放されるまで障害が保留しているメッセージ。

## SVG エクスポート
svg-label = { $title }：シーケンス図（エージェント { $agents } 人、メッセージ { $messages } 件、リクエスト { $requests } 件）
