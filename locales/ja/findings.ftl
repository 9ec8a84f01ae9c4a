# 検査器と探索器が見つけたこと（src/ui/finding_words.rs）。リクエスト ID、エージェント名、
# メッセージ型、ツール名、ステータス（pending、approved、rejected、working、idle、shutdown）、
# イベント番号（#12）は翻訳しません。

## 違反の種類
violation-answer-to-unknown-request = 存在しないリクエストへのレスポンス
violation-second-answer = 二度目のレスポンス
violation-answer-from-wrong-agent = 宛先以外からのレスポンス
violation-answer-across-restart = 再起動をまたいだレスポンス
violation-request-across-restart = 再起動をまたいだリクエスト
violation-message-to-exited-teammate = 終了したチームメイトへのメッセージ
violation-left-pending = pending のまま残ったリクエスト
violation-answer-lost = 失われたレスポンス
violation-duplicate-delivered = 重複した配送
violation-act-after-shutdown = 承認済みシャットダウン後の行動
violation-gated-tool-while-closed = ゲートが閉じている間のツール実行
violation-answer-after-expiry = 期限切れ後のレスポンス
violation-mark = プロトコル違反：{ $kind }：{ $detail }

## 部品
finding-fault-rule = 障害ルール { $rule }
finding-fault-any = ある障害
finding-request = リクエスト { $id }
finding-request-no-id = ID のないリクエスト
finding-kind = { $kind ->
    [shutdown] シャットダウン
    [plan] プラン
   *[other] { $kind }
}

## 検査器が見つけたこと
finding-answer-unknown = { $from } が{ $request }に答えましたが、そのような{ $kind }リクエストはありません
finding-answer-wrong-agent = { $from } が{ $request }に答えましたが、その宛先は { $addressee } です
finding-answer-across-restart = { $from }（インカネーション { $incarnation }）が{ $kind }の{ $request }に答えましたが、それは前のインカネーション（{ $addressed }）宛てでした
finding-request-across-restart = { $agent }（インカネーション { $incarnation }）が{ $kind }の{ $request }を読みましたが、それは前のインカネーション（{ $addressed }）宛てでした
finding-second-answer = { $from } が{ $request }に二度目の答えを返しました
finding-duplicate = { $fault }が{ $whose }{ $request }へのレスポンスを複製しました（#{ $seq }）：{ $to } は同じレスポンスを二度受け取りました。{ $tracker }
finding-duplicate-recorded = トラッカーはレスポンスを一つ（{ $status }）だけ記録し、複製は無視しました
finding-duplicate-unrecorded = トラッカーはレスポンスを記録していません
finding-to-exited = { $from } が { $to } に { $msg_type } を送りましたが、{ $to } はすでにシャットダウンしていました
finding-arrival-released = 。{ $fault }がそれまで保留していました（#{ $seq }）
finding-arrival-copy = 。これは{ $fault }が作った複製です（#{ $seq }）
finding-pending = 実行の終了時、{ $addressee } 宛ての{ $kind }{ $request }はまだ pending でした
finding-pending-dropped = ：{ $fault }がリクエストを破棄したため（#{ $seq }）、{ $addressee } はそれを見ていません
finding-pending-held = ：{ $fault }がリクエストを保留し（#{ $seq }）、{ $addressee } は答えませんでした
finding-pending-restarted = ：{ $addressee } が答える前に再起動したため（インカネーション { $incarnation }）、新しい実行は古い実行の代わりに答えられません
finding-pending-unrecorded = 。レスポンスは届きましたが、トラッカーはそれを記録しませんでした
finding-pending-exited = 。{ $addressee } は答えずにシャットダウンしました
finding-pending-answered-later = 。その後 { $by } が答え、トラッカーは今それを { $status } として記録しています
finding-answer-lost-approved-exits = { $from } が{ $kind }{ $request }を承認して終了しましたが、{ $fault }がレスポンスを破棄したため（#{ $seq }）、{ $to } はそれを知りません
finding-answer-lost-approved = { $from } が{ $kind }{ $request }を承認しましたが、{ $fault }がレスポンスを破棄したため（#{ $seq }）、{ $to } はそれを知りません
finding-answer-lost-rejected = { $from } が{ $kind }{ $request }を拒否しましたが、{ $fault }がレスポンスを破棄したため（#{ $seq }）、{ $to } はそれを知りません
finding-act-after-shutdown = { $agent } は{ $kind }{ $request }を承認した後（#{ $seq }）、ターンを終えて終了せずに、{ $act }
finding-act-model-call = もう一度モデルを呼び出しました
finding-act-tool-call = { $tool } を実行しました
finding-act-message = { $to } に { $msg_type } を送りました
finding-gated-tool = { $agent } はゲート「{ $gate }」が閉じている間に { $tool } を実行しました
finding-answer-after-expiry = { $from } が期限切れになった{ $kind }{ $request }に答えました

## 探索器自身が見つけたこと
finding-no-responder = { $request }（{ $kind }）は { $addressee } 宛てですが、{ $addressee } にはそれに答えるツールがありません
finding-approved = { $by } が{ $request }を承認しました
finding-rejected = { $by } が{ $request }を拒否しました
finding-work-before-approval = { $agent } はプランモードなのに、プランの承認前に { $tool } でワークスペースを変更しました
finding-quiet-pending = { $requester } から { $addressee } への{ $kind }{ $request }が pending のまま、すべてのエージェントが idle になりました：誰も答えません
finding-ended-pending = { $addressee } 宛ての{ $kind }{ $request }が pending のまま実行が終わりました
finding-approved-not-exited = { $agent } は自分のシャットダウンを承認しましたが、実行の終了時のステータスは shutdown ではなく { $status } でした
finding-stuck = 何も進めないのに実行が終わっていません：チームが行き詰まっています
