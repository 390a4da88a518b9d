# The cost model of the modification against dev4/plans.txt (run from this folder; needs numpy)
import re, numpy as np
rows=[]
for l in open('dev4/plans.txt'):
    m=re.match(r'(\S+) k=(\d+) exit 0: .*\|\s+(.*)$', l)
    if not m: continue
    lab,k=m.group(1),int(m.group(2)); f=m.group(3).split()
    t=float(f[7]); gf=float(f[12]); calls=int(f[15])
    if lab=='model': w,mu=64,(2 if k==64 else 1)
    else: w,mu=map(int,re.match(r'w(\d+),m(\d+)',lab).groups())
    rows.append((k,w,mu,lab,t,gf,calls))
n,M=8000,3000
def plan(k,w,mu):
    nb1=mu*max(k,w); top=M+k; b=min(nb1+k-1,top-1); nw=(top-k+nb1-1)//nb1
    # Q flops: W=Q'U, lower wy_right, windows wy_right, phase2 wy_right
    fq=2*n*k*n + 4*n*(n-M)*k
    e=top
    while e>k:
        s=max(e-nb1-k,0); h=e-s; fq+=4*n*h*k; e-=nb1
    nblk=(M+w-1)//w
    for j in range(nblk):
        c0=j*w; jb=min(w,M-c0); rb=min(c0+jb+b,top)-c0; fq+=4*n*rb*jb
    return nb1,b,nw,fq, w+b, nb1+k
X=[];Y=[];info=[]
for k,w,mu,lab,t,gf,calls in rows:
    nb1,b,nw,fq,r2,r1=plan(k,w,mu)
    steps=nw*k+M
    off=max(r2,r1)>288
    X.append([fq/1e9,gf-fq/1e9,calls,steps/1e3, steps/1e3*off]); Y.append(t*1e3); info.append((k,w,mu,lab,r2,r1))
X=np.array(X);Y=np.array(Y)
# current model: 5 TF/s all flops, 6us/call, 2.1 us/step
cur=(X[:,0]+X[:,1])/5 + X[:,2]*6e-3 + X[:,3]*2.1
coef,res,_,_=np.linalg.lstsq(X,Y,rcond=None)
print("fit coef: ms/GFLOP Q %.4f rest %.4f ms/call %.4f ms/kstep %.3f offchip extra %.3f"%tuple(coef))
pred=X@coef
for i in range(len(Y)):
    print("%-6s k=%-2d w%-2d m%d rows %3d/%3d meas %6.2f cur %6.2f fit %6.2f"%(info[i][3],info[i][0],info[i][1],info[i][2],info[i][4],info[i][5],Y[i],cur[i],pred[i]))
r=cur/Y-1
print("cur rel err min %.0f%% max %.0f%%"%(100*r.min(),100*r.max()))
for k in (1,8,64):
    idx=[i for i in range(len(Y)) if info[i][0]==k and info[i][3]!='model']
    b=min(idx,key=lambda i:cur[i]); print("k",k,"model's argmin", info[b][1:3], "meas", Y[b])
