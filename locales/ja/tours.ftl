# ガイドツアー (src/ui/tours.rs): 各ツアーのタイトルと紹介、各ストップのタイトルと理由。
# { $id } はリクエスト id、{ $name } はチームメイト。

tour-the-request = そのリクエスト
tour-the-teammate = そのチームメイト

tour-without-protocols-title = プロトコルなし
tour-without-protocols-intro = レッスンの出発点：リーダーは「止まって」と言って、あとは祈るしかありません。次に、同じチームでシャットダウンのハンドシェイクを使います。

tour-without-protocols-1-title = ただのメッセージ：「止まって」
tour-without-protocols-1-why = リーダーはレッスン 9 のやり方で、普通のメッセージを送って { $name } に止まるよう頼みます。request_id もなく、レスポンスも求めないので、返ってくるものを何もこのメッセージに対応づけられません。
tour-without-protocols-2-title = リーダーには知るすべがない
tour-without-protocols-2-why = リーダーのターンは、待つものも確かめるものもないまま終わります：トラッカーの項目も pending 状態もありません。{ $name } は止まったのでしょうか？ リーダーには知るすべがありません。
tour-without-protocols-3-title = { $name } が「止まって」を読む
tour-without-protocols-3-why = { $name } はその言葉を目にしますが、それで何をすべきかを定めるプロトコルはなく、レスポンスも期待されていません。{ $name } は作業を続け、リーダーにはどちらの結果も知らされません。
tour-without-protocols-4-title = { $name } は止まらなかった
tour-without-protocols-4-why = { $name } は作業を終えて idle になりました。ループの中にいるままで、次のメッセージが来れば起きます。「止まって」は何も変えず、誰もリーダーに伝えませんでした。
tour-without-protocols-5-title = ハンドシェイクあり：request_id
tour-without-protocols-5-why = 今度はリーダーが shutdown_request を呼びます：トラッカーは { $name } 宛ての { $id } を pending として記録し、メッセージは { $id } を運びます。{ $name } のレスポンスは必ず { $id } を名指すので、リーダーは照合できます。
tour-without-protocols-6-title = 自分のリクエストを名指すレスポンス
tour-without-protocols-6-why = { $name } は { $id } に対する shutdown_response で答えます。これこそ、普通のメッセージでは決して得られない確認です。
tour-without-protocols-7-title = リーダーは確実に知る
tour-without-protocols-7-why = トラッカーは { $id } が approved だと示し、config.json は { $name } が shutdown だと示します：{ $name } は了承し、ターンを終えてループを抜けました。同じチーム、同じ停止の依頼でも、違いを生むのはプロトコルです。

tour-shutdown-title = グレースフルシャットダウン
tour-shutdown-intro = リクエストから確認までのシャットダウンハンドシェイク：なぜ request_id が必要なのか、なぜ alice は退出前にターンを終えるのか。

tour-shutdown-1-title = なぜ request_id が必要なのか
tour-shutdown-1-why = リクエストは自分の id { $id } を得て、pending として shutdown_requests に入ります。ただの「はい」では何への答えかわかりませんが、{ $id } を運ぶレスポンスは、いくつのリクエストが飛び交っていても、まさにこのリクエストに答えます。
tour-shutdown-2-title = 頼んだだけでは止まらない
tour-shutdown-2-why = { $name } がリクエストを読むのは、ループの次の回、次のモデル呼び出しの前です。{ $name } が答えるまで { $id } は pending のまま：リーダーは頼みましたが、まだ何も止まっていません。
tour-shutdown-3-title = 最後のターン
tour-shutdown-3-why = これが { $name } の最後のモデル呼び出しです。シャットダウンは普通のターンの中で処理されます：{ $name } が答え、ツール呼び出しが完了し、それからループが終わります。
tour-shutdown-4-title = pending → approved、一度だけ
tour-shutdown-4-why = { $name } が { $id } を承認します：唯一の FSM が pending → approved に遷移します。approved は終端状態で、後から届くレスポンスでは変えられません。
tour-shutdown-5-title = なぜ退出前にターンを終えるのか
tour-shutdown-5-why = レスポンスを送ってはじめて { $name } はループを抜けます（config.json で working → shutdown）。これが「グレースフル」な部分です：スレッドを強制終了したときのように途中で断ち切られるのではなく、チームメイトは今の作業を終えます。
tour-shutdown-6-title = request_id で照合
tour-shutdown-6-why = リーダーは { $id } への shutdown_response を読み、トラッカーに { $id } を見つけます：{ $name } が了承したことを確実に知ります。普通の「止まって」では決して得られない確認です。

tour-list-after-shutdown-title = シャットダウン後のステータス
tour-list-after-shutdown-intro = 完了したハンドシェイクが残すもの：トラッカーの承認済みリクエストと、config.json のステータス。

tour-list-after-shutdown-1-title = ハンドシェイク完了
tour-list-after-shutdown-1-why = { $name } が { $id } を承認します。トラッカーは合意内容を保持し、config.json はまもなく起きたことを保持します。
tour-list-after-shutdown-2-title = config.json に記録
tour-list-after-shutdown-2-why = 名簿（レッスンの config.json）で { $name } のステータスが shutdown になります。もうメッセージを読まない { $name } に尋ねなくても、誰でも後から読めます。
tour-list-after-shutdown-3-title = その後、新しいプロンプト
tour-list-after-shutdown-3-why = ユーザーがリーダーにチームのステータスを尋ねます。同じチームです：トラッカーと名簿は、それらを埋めたプロンプトが終わった後も残ります。
tour-list-after-shutdown-4-title = シャットダウン承認後のステータス
tour-list-after-shutdown-4-why = list_teammates が config.json を読みます：{ $name } は shutdown。これは { $name } が承認後にループを抜けたときに設定されたもので、沈黙から推測したものではないので、リーダーは信頼できます。

tour-reject-plan-title = リスクの高いプランを拒否
tour-reject-plan-intro = プラン承認：同じ request_id パターンを逆向きに使い、プランが承認されるまでランタイムがゲートを閉じておきます。

tour-reject-plan-1-title = プランモード：ランタイムが守るゲート
tour-reject-plan-1-why = { $name } はプランモードで生成されます。ゲートはプロンプトだけでなくランタイムが強制します：{ $name } のプランが承認されるまで write_file と edit_file はエラーを返すので、指示を無視するモデルでもワークスペースを変更できません。
tour-reject-plan-2-title = 同じパターンを逆向きに
tour-reject-plan-2-why = { $name } がプランを提出します：plan_requests に pending の { $id } ができ、プランは { $id } を運んでリーダーへ向かいます。シャットダウンハンドシェイクの逆です：チームメイトが頼み、リーダーが答えます。
tour-reject-plan-3-title = フィードバック付きで拒否
tour-reject-plan-3-why = リーダーは { $id } を拒否し、理由を述べます。rejected は終端状態：{ $name } は { $id } を pending に戻せないので、先へ進むには修正して再提出します。
tour-reject-plan-4-title = 新しいプラン、新しい request_id
tour-reject-plan-4-why = 修正したプランは新しいリクエスト { $id } です。拒否されたものはトラッカー上で rejected のままなので、各判定は対象のプランに結びついたままです。
tour-reject-plan-5-title = ゲートが開く
tour-reject-plan-5-why = リーダーが { $id } を承認します。トラッカーが approved と言うので、これ以降ランタイムは { $name } にファイルの変更を許します。
tour-reject-plan-6-title = 今度は書き込みが通る
tour-reject-plan-6-why = { $name } の書き込みが成功します：ランタイムは { $name } のプランが承認済みであることを確かめました。{ $id } が承認される前なら、同じ呼び出しは拒否されていました。

tour-approve-plan-title = プランを承認
tour-approve-plan-intro = プランの提出、レビュー、承認。そして、charlie がいつ書き込めるかを、プロンプトではなくランタイムが決める理由。

tour-approve-plan-1-title = なぜランタイムがゲートを守るのか
tour-approve-plan-1-why = { $name } はプランモードで動作します。プロンプトはモデルに承認を待つよう頼むことしかできません。ここではトラッカーに { $name } の承認済みプランが入るまで、ランタイム自身がワークスペースの変更を拒否します。
tour-approve-plan-2-title = プランが request_id を得る
tour-approve-plan-2-why = { $name } のプランは plan_requests のリクエスト { $id } になり、pending です。リーダーの判定は { $id } を運ぶので、{ $name } はどのプランについてかがわかります。
tour-approve-plan-3-title = 作業ではなく待機
tour-approve-plan-3-why = { $id } が pending の間、{ $name } にできることはありません：idle になります。リーダーの plan_approval_response が起こします。
tour-approve-plan-4-title = リーダーがレビュー
tour-approve-plan-4-why = プランは { $id } 付きの plan_approval_request としてリーダーのインボックスに届きます。リーダーは { $id } を名指す plan_approval で答えます。（レッスンはプランを plan_approval_response として送っていますが、これは名前の誤りで、ここでは直しています。）
tour-approve-plan-5-title = 承認
tour-approve-plan-5-why = リーダーが { $id } を承認します：plan_requests で pending → approved、レスポンスは同じ id で { $name } に戻ります。
tour-approve-plan-6-title = ランタイムが通す
tour-approve-plan-6-why = { $name } がファイルを書き、書き込みは成功します。ランタイムがトラッカーに { $name } の承認済みプランを見つけたからであって、プロンプトが許可したからではありません。

tour-reject-then-accept-title = 忙しいチームメイト：拒否してから承認
tour-reject-then-accept-intro = チームメイトは断ることができます。そのときリーダーが、古いリクエストへの二度目のレスポンスではなく、新しいリクエストで頼み直す理由。

tour-reject-then-accept-1-title = 作業の途中で頼まれる
tour-reject-then-accept-1-why = { $name } にまだ移行するファイルがあるうちに、リーダーがシャットダウンを頼みます（{ $id }）。グレースフルシャットダウンは命令ではなくリクエストです：{ $name } は断れます。
tour-reject-then-accept-2-title = いいえ、理由付きで
tour-reject-then-accept-2-why = { $name } は { $id } を拒否し、理由を述べて作業を続けます。リーダーは { $name } が忙しいことと、その理由を知ります。普通の「止まって」では何もわかりませんでした。
tour-reject-then-accept-3-title = なぜ二度目のレスポンスは拒否されるのか
tour-reject-then-accept-3-why = リーダーは新しいリクエスト { $id } でもう一度頼みます。最初のものは rejected のままです：終端状態は確定しているので、それへの二度目のレスポンスはエラーで拒否されます（レッスンのコードは黙って上書きしてしまいます）。
tour-reject-then-accept-4-title = 最後のターン
tour-reject-then-accept-4-why = { $name } の最後のモデル呼び出し：新しいリクエストを読んだばかりで、このターンで答えます。ループが終わる前にツール呼び出しが完了するので、書きかけのものは残りません。
tour-reject-then-accept-5-title = 今度は approved
tour-reject-then-accept-5-why = { $name } が { $id } を承認します：作業が終わったので、今なら止まっても安全です。トラッカーは両方のリクエストを保持します。1 つは rejected、1 つは approved。
tour-reject-then-accept-6-title = そして退出
tour-reject-then-accept-6-why = レスポンスを送った後、{ $name } はループを抜けます：working → shutdown。チームメイトは退出前にターンを終えました。

tour-out-of-order-title = 2 つのリクエストに順不同でレスポンス
tour-out-of-order-intro = 同時に飛んでいる 2 つのリクエストに、逆の順序でレスポンスが返ります。それでも各レスポンスは自分のリクエストに届きます。

tour-out-of-order-1-title = 飛んでいる 2 つのリクエスト：1 つ目
tour-out-of-order-1-why = リーダーはまずリクエスト { $id } で { $name } に頼み、レスポンスを待たずに次のチームメイトに頼みます。
tour-out-of-order-2-title = ……そして 2 つ目
tour-out-of-order-2-why = 次に { $name } に、リクエスト { $id } で頼みます。2 つのシャットダウンリクエストが同時に pending なので、どのレスポンスも、どのリクエストへの答えかを示さなければなりません。
tour-out-of-order-3-title = 順序が入れ替わったレスポンス
tour-out-of-order-3-why = { $name } は 2 番目に頼まれたのに、先に { $id } に答えます：もう一方のチームメイトはまだ作業を終えていません。レスポンスが届く順序からは、どのリクエストのものかはわかりません。
tour-out-of-order-4-title = 順序ではなく request_id で照合
tour-out-of-order-4-why = リーダーは shutdown_requests で { $id } を引き、{ $name } の項目を見つけます。到着順で照合していたら、これを最初のチームメイトのレスポンスと取り違えていたでしょう。
tour-out-of-order-5-title = もう一方のレスポンス、後から
tour-out-of-order-5-why = { $name } は作業を終えてから最後に { $id } に答えます。それでも正しい項目に届きます：決めるのは id で、順序ではありません。
tour-out-of-order-6-title = 両方のハンドシェイク完了
tour-out-of-order-6-why = { $name } もループを抜けます。両方のリクエストが承認され、それぞれ request_id で自分のチームメイトに対応づけられています。
